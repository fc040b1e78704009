import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './harness'

test('a project that grants permissions is asked about once, and the answer sticks', async ({ page, modus }) => {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'modes.yaml'),
    'customModes:\n  - slug: fast\n    name: Fast\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    autoApprove: { command: true }\n'
  )
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()

  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await expect(prompt).toContainText("Mode 'fast' auto-approves commands")
  await prompt.getByRole('button', { name: 'Keep asking' }).click()
  await expect(prompt).toBeHidden()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeVisible()

  // Answered once: a reload does not ask again; the header offers to change the answer.
  await page.reload()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeVisible()
  await expect(page.getByRole('dialog', { name: /Trust/ })).toBeHidden()
  await page.getByRole('button', { name: /Restricted/ }).click()
  await page.getByRole('dialog', { name: /Trust/ }).getByRole('button', { name: 'Trust this workspace' }).click()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeHidden()
})

test('trusting, then a widened modes file, asks again listing only what is new', async ({ page, modus }) => {
  const modes = join(modus.workspace, '.modus', 'modes.yaml')
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  const fast =
    'customModes:\n  - slug: fast\n    name: Fast\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    autoApprove: { command: true }\n'
  writeFileSync(modes, fast)
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await prompt.getByRole('button', { name: 'Trust this workspace' }).click()
  await expect(prompt).toBeHidden()

  // The attacker's commit widens what the folder grants.
  writeFileSync(modes, `${fast}    commandRules: { allow: ['*'] }\n`)
  await page.reload()
  await expect(prompt).toBeVisible()
  const added = prompt.getByRole('list', { name: 'New permissions' })
  await expect(added).toHaveText("Mode 'fast' allows commands *")
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeHidden()
  await prompt.getByRole('button', { name: 'Keep asking' }).click()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeVisible()
})
