import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test, type ModusHarness } from './harness'

// Issue #28 items 15–17: what the user grants in the app is theirs, and they can see and take back trust.

const FAST =
  'customModes:\n  - slug: fast\n    name: Fast\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    autoApprove: { command: true }\n'
const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })

async function openFolder(
  page: Page,
  modus: ModusHarness,
  answer?: 'Trust this workspace' | 'Keep asking'
): Promise<void> {
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  if (answer) {
    const prompt = page.getByRole('dialog', { name: /Trust/ })
    await prompt.getByRole('button', { name: answer }).click()
    await expect(prompt).toBeHidden()
  }
  await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
  await page.getByLabel(/Base URL/).fill(modus.fake.anthropicBaseUrl)
  await page.getByLabel('Model').fill('claude-sonnet-4-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' })

/** Picks a mode in the composer's mode menu, as a keyboard user would. */
export async function chooseMode(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Mode:/ }).click()
  await page
    .getByRole('menu', { name: 'Modes' })
    .getByRole('menuitemradio', { name: new RegExp(`^${name}\\b`) })
    .click()
  await expect(page.getByRole('button', { name: /^Mode:/ })).toContainText(name)
}

test('a mode the user saves to the project of an untrusted folder is their own grant until someone else changes it', async ({
  page,
  modus
}) => {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  const modesFile = join(modus.workspace, '.modus', 'modes.yaml')
  writeFileSync(modesFile, FAST)
  await openFolder(page, modus, 'Keep asking')

  await nav(page).getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('button', { name: 'New mode' }).click()
  const editor = page.getByRole('form', { name: 'New mode' })
  await editor.getByLabel('Name', { exact: true }).fill('Docs Writer')
  await editor.getByLabel('Role definition').fill('Writes the docs.')
  await editor.getByLabel(/^Edit \(/).check()
  await editor.getByRole('switch', { name: 'Edit files' }).check()
  await editor.getByLabel('Save to').selectOption('project')
  await editor.getByRole('button', { name: 'Save mode' }).click()
  const saved = page.getByRole('form', { name: 'Edit mode Docs Writer' })
  await expect(saved).toBeVisible()
  await expect(saved).not.toContainText('not trusted')
  await expect(saved.getByRole('switch', { name: 'Edit files' })).toBeChecked()
  const list = page.getByRole('navigation', { name: 'Mode list' })
  await expect(list.getByRole('button', { name: /Docs Writer/ })).not.toContainText('not trusted')
  await expect(list.getByRole('button', { name: /Fast/ })).toContainText('not trusted')

  // The trust prompt lists only what the project's files grant, not the user's own mode.
  await page.getByRole('button', { name: /Restricted/ }).click()
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await expect(prompt).toContainText("Mode 'fast' auto-approves commands")
  await expect(prompt).not.toContainText('docs-writer')
  await prompt.getByRole('button', { name: 'Keep asking' }).click()

  // Its toggle takes effect: the edit is written with no approval, though the folder is untrusted.
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'docs/guide.md', content: '# Guide\n' } }] },
    completion('Wrote the guide.')
  )
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await chooseMode(page, 'Docs Writer')
  await page.getByLabel('Message').fill('Write the guide')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Wrote the guide.')
  expect(readFileSync(join(modus.workspace, 'docs', 'guide.md'), 'utf8')).toBe('# Guide\n')
  await expect(page.getByRole('group', { name: 'Tool call write_to_file' })).toContainText('auto-approved')

  // Someone else changes the mode in the file: it is the project's again, and the prompt lists it.
  writeFileSync(
    modesFile,
    readFileSync(modesFile, 'utf8').replace('Writes the docs.', 'Writes the docs and runs scripts.')
  )
  await page.reload()
  await nav(page).getByRole('button', { name: 'Modes' }).click()
  await expect(
    page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /Docs Writer/ })
  ).toContainText('not trusted')
  await page.getByRole('button', { name: /Restricted/ }).click()
  await expect(page.getByRole('dialog', { name: /Trust/ })).toContainText(
    "Mode 'docs-writer' auto-approves reads, edits"
  )
  // The record of the user's saves lives in their data dir, never in the project.
  expect(existsSync(join(modus.dataDir, 'own-project-modes.json'))).toBe(true)
})

test('Settings shows this folder’s trust and every folder answered for, and revoking asks again', async ({
  page,
  modus
}) => {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(join(modus.workspace, '.modus', 'modes.yaml'), FAST)
  await openFolder(page, modus, 'Trust this workspace')
  const trustFile = join(modus.dataDir, 'trusted-workspaces.json')
  expect(Object.keys(JSON.parse(readFileSync(trustFile, 'utf8')).workspaces)).toHaveLength(1)

  await nav(page).getByRole('button', { name: 'Settings' }).click()
  const settings = page.getByRole('region', { name: 'Settings' })
  await expect(settings.getByRole('heading', { name: 'Trust' })).toBeVisible()
  await expect(settings).toContainText('Trusted: its project modes')
  const folders = settings.getByRole('list', { name: 'Folders you answered for' })
  await expect(folders.getByRole('listitem')).toHaveCount(1)
  await expect(folders).toContainText('trusted since')
  await expect(folders).toContainText('1 grant')

  await folders.getByRole('button', { name: /^Revoke trust for / }).click()
  await expect(settings.getByRole('status').filter({ hasText: 'Trust revoked' })).toBeFocused()
  await expect(folders).toBeHidden()
  await expect(settings).toContainText('Not answered yet')
  // The answer is gone from disk, and the folder asks again at once.
  expect(JSON.parse(readFileSync(trustFile, 'utf8')).workspaces).toEqual({})
  await expect(page.getByRole('dialog', { name: /Trust/ })).toBeVisible()
})

test('"always allow" on a built-in mode saves a widened rule apart from the built-in, shown as the user\'s addition', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: 'go version' } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'go env' } }] },
    completion('Checked.')
  )
  await openFolder(page, modus)
  await page.getByLabel('Message').fill('Check go')
  await page.getByLabel('Message').press('Enter')
  const cards = page.getByRole('group', { name: 'Tool call execute_command' })
  await cards.nth(0).getByRole('button', { name: 'Always allow in this mode…' }).click()
  const widen = cards.nth(0).getByRole('group', { name: /Rule to save/ })
  await expect(widen.getByRole('radio', { name: 'go version' })).toBeChecked()
  await widen.getByRole('radio', { name: 'go *' }).check()
  await cards.nth(0).getByRole('button', { name: 'Save rule and approve' }).click()
  // The widened rule lets the next go command run unasked.
  await expect(cards.nth(1).locator('.tool-decision')).toContainText('Every part matches an allow rule')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Checked.')

  // Stored apart: no copy of the built-in in the global modes file.
  expect(existsSync(join(modus.dataDir, 'modes.yaml'))).toBe(false)
  expect(
    JSON.parse(readFileSync(join(modus.dataDir, 'builtin-additions.json'), 'utf8')).modes.code.commandAllow
  ).toEqual(['go *'])
  await nav(page).getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
  const additions = page.getByRole('region', { name: 'Your additions' })
  await expect(additions).toContainText('go *')
  await expect(
    page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ })
  ).not.toContainText('override')
})
