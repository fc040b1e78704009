import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test } from './harness'

// Issue #28 item 19: the small things a user trips over — errors under their own field, words in
// the right number, code shown as code, the real state of a task, destructive buttons that look it.

const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' })

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

test('a bad sandbox domain is reported under the domains box and linked to it', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await nav(page).getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
  const editor = page.getByRole('form', { name: 'Edit mode Code' })
  await editor.getByLabel('Network', { exact: true }).selectOption('allow-list')
  const domains = editor.getByLabel(/^Allowed domains/)
  await domains.fill('not a domain!')
  await editor.getByRole('button', { name: 'Save override' }).click()

  await expect(domains).toHaveAttribute('aria-invalid', 'true')
  const errorId = await domains.getAttribute('aria-describedby')
  expect(errorId).toBeTruthy()
  const error = page.locator(`[id="${errorId}"]`)
  await expect(error).toContainText('A domain must be a host name')
  // Right under the domains box, not at the end of the sandbox group.
  const box = await domains.boundingBox()
  const below = await error.boundingBox()
  const outside = await editor.getByLabel(/^Commands that run outside the sandbox/).boundingBox()
  expect(below!.y).toBeGreaterThan(box!.y)
  expect(below!.y).toBeLessThan(outside!.y)
})

test('the trust prompt shows backticked parts of a grant as code, not as backticks', async ({ page, modus }) => {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'modes.yaml'),
    "customModes:\n  - slug: fast\n    name: Fast\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    commandRules: { allow: ['npm test *'] }\n"
  )
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await expect(prompt.locator('li').first()).toBeVisible()
  const items = await prompt.locator('li').allInnerTexts()
  expect(items.join('\n')).not.toContain('`')
  await expect(prompt.locator('li code').first()).toBeVisible()
})

test('History: a task stopped at the mistake limit reads as stopped, each row has a date, Delete looks destructive', async ({
  page,
  modus
}) => {
  const invalidRead = { toolCalls: [{ name: 'read_file', input: {} }] }
  modus.fake.enqueue(invalidRead, invalidRead, invalidRead)
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Read something')
  const card = page.getByRole('group', { name: 'Mistake limit reached' })
  await card.getByRole('button', { name: 'Stop the task' }).click()
  await expect(page.locator('.task-status')).toHaveText('Stopped at a limit')

  await nav(page).getByRole('button', { name: 'History' }).click()
  const row = page.getByRole('listitem', { name: 'Read something' })
  await expect(row.locator('.status')).toHaveText('stopped at a limit')
  await expect(row.locator('time')).toContainText(/^Today, \d/)
  await expect(page.getByText('1 of 1 task', { exact: true })).toBeVisible()

  const remove = row.getByRole('button', { name: 'Delete' })
  const danger = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--danger'))
  const colour = await remove.evaluate((button) => getComputedStyle(button).color)
  const expected = await page.evaluate((value) => {
    const probe = document.createElement('span')
    probe.style.color = value
    document.body.append(probe)
    const resolved = getComputedStyle(probe).color
    probe.remove()
    return resolved
  }, danger.trim())
  expect(colour).toBe(expected)
})

test('a tab whose token the host refuses shows a styled page that says what to do', async ({ page, modus }) => {
  await page.goto(`${modus.origin}/#token=from-an-earlier-start`)
  const notice = page.getByRole('alert')
  await expect(notice.getByRole('heading', { name: 'This tab needs a new address' })).toBeVisible()
  await expect(notice).toContainText('needs the token printed when the server started')
  await expect(notice).toContainText('restarted')
  await expect(notice).toHaveCSS('border-top-style', 'solid')
})
