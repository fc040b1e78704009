import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { parse } from 'yaml'
import { expect, test, type ModusHarness } from './harness'

const axeViolations = async (page: Page, selector: string): Promise<string[]> =>
  (await new AxeBuilder({ page }).include(selector).analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`
  )

/** Opens the folder, keeps its project grants off at the trust prompt, and configures the fake provider. */
async function openUntrusted(page: Page, modus: ModusHarness): Promise<void> {
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await expect(prompt).toContainText('Hook Stop runs ./keep-going.sh')
  await prompt.getByRole('button', { name: 'Keep asking' }).click()
  await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
  await page.getByLabel(/Base URL/).fill(modus.fake.anthropicBaseUrl)
  await page.getByLabel('Model').fill('claude-sonnet-4-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByLabel('Message')).toBeVisible({ timeout: 60_000 })
}

test("Settings → Hooks lists the hooks with their source, imports Claude Code's, and an imported hook denies a call", async ({
  page,
  modus
}) => {
  // A task, an import and two axe scans: more than the default minute on a loaded machine.
  test.setTimeout(240_000)
  // The host's HOME (see test/support/serve-process.ts) holds the user's Claude Code settings and hook script.
  const home = `${modus.dataDir}-home`
  mkdirSync(join(home, '.claude', 'hooks'), { recursive: true })
  const guard = join(home, '.claude', 'hooks', 'guard.sh')
  writeFileSync(
    guard,
    '#!/bin/sh\ninput=$(cat)\ncase "$input" in\n  *forbidden*) echo "forbidden words are not run here" >&2; exit 2;;\nesac\nexit 0\n'
  )
  writeFileSync(
    join(home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `sh ${guard}`, timeout: 20 }] }],
        Notification: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }]
      }
    })
  )
  mkdirSync(join(modus.workspace, '.claude'))
  writeFileSync(
    join(modus.workspace, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'true' }] }] }
    })
  )
  mkdirSync(join(modus.workspace, '.modus'))
  writeFileSync(join(modus.workspace, '.modus', 'hooks.yaml'), 'hooks:\n  Stop:\n    - command: ./keep-going.sh\n')
  modus.fake.enqueue(
    { text: 'Trying it.', toolCalls: [{ name: 'execute_command', input: { command: 'echo forbidden-thing' } }] },
    { toolCalls: [{ name: 'attempt_completion', input: { result: 'The hook refused it.' } }] }
  )

  await openUntrusted(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  const section = page.getByRole('region', { name: 'Hooks' })
  await expect(section).toContainText('None yet.')
  await expect(section).toContainText(join(modus.dataDir, 'hooks.yaml'))
  // The project's own file is listed, and said to be off until the folder is trusted.
  const projectTable = section.getByRole('table', { name: 'This project’s hooks' })
  await expect(projectTable.getByRole('row').nth(1)).toContainText('Stop')
  await expect(projectTable).toContainText('./keep-going.sh')
  await expect(section).toContainText('Not in force until you trust this folder.')

  // Import from Claude Code: what would be imported is shown, nothing is written before the confirmation.
  await section.getByRole('button', { name: 'Import from Claude Code…' }).click()
  const panel = section.getByRole('region', { name: 'Import from Claude Code' })
  await expect(panel.getByRole('table', { name: `Hooks in ${join(home, '.claude', 'settings.json')}` })).toContainText(
    `sh ${guard}`
  )
  await expect(panel.getByRole('table', { name: /sample-project/ })).toContainText('Edit|Write')
  await expect(panel).toContainText('Not imported: Notification notify-send done: Modus has no Notification event')
  expect(await axeViolations(page, '.hooks-settings')).toEqual([])
  expect(() => readFileSync(join(modus.dataDir, 'hooks.yaml'))).toThrow()
  await panel.getByRole('button', { name: 'Import 2 hooks' }).click()
  await expect(section.locator('p[role="status"]')).toHaveText('Imported 2 hooks into your hooks.')
  const own = section.getByRole('table', { name: 'Your hooks' })
  await expect(own.getByRole('row')).toHaveCount(3)
  await expect(own).toContainText('20 s')
  await expect(own).toContainText('30 s (default)')

  // Add a hook: the field says what is wrong, and Save waits for a valid hook.
  await section.getByRole('button', { name: 'Add hook' }).click()
  const form = section.getByRole('form', { name: 'New hook' })
  await expect(form.getByLabel('Event')).toBeFocused()
  await form.getByLabel('Tools (matcher)').fill('Bash(')
  await expect(form).toContainText('matcher "Bash(" is not a valid regular expression')
  await form.getByLabel('Tools (matcher)').fill('Bash')
  await form.getByLabel('Command', { exact: true }).fill('./lint.sh')
  await form.getByLabel('Time limit (seconds)').fill('soon')
  await expect(form).toContainText('A number of seconds above 0, at most 600.')
  await expect(form.getByRole('button', { name: 'Save hook' })).toBeDisabled()
  await form.getByLabel('Time limit (seconds)').fill('5')
  expect(await axeViolations(page, '.hooks-settings')).toEqual([])
  await form.getByRole('button', { name: 'Save hook' }).click()
  await expect(section.locator('p[role="status"]')).toHaveText('Hook saved.')
  await expect(own.getByRole('row')).toHaveCount(4)
  expect(parse(readFileSync(join(modus.dataDir, 'hooks.yaml'), 'utf8')).hooks.PreToolUse).toEqual([
    { matcher: 'Bash', command: `sh ${guard}`, timeout: 20 },
    { matcher: 'Bash', command: './lint.sh', timeout: 5 }
  ])
  await section.getByRole('button', { name: 'Remove the PreToolUse hook ./lint.sh' }).click()
  await expect(section.locator('p[role="status"]')).toHaveText('Removed the PreToolUse hook ./lint.sh.')
  await expect(own.getByRole('row')).toHaveCount(3)

  // The imported hook is the user's own: it decides a tool call in a task of this untrusted folder.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click()
  await page.getByLabel('Message').fill('Run the forbidden thing')
  await page.getByLabel('Message').press('Enter')
  const card = page.getByRole('group', { name: 'Tool call execute_command' })
  await expect(card).toContainText('PreToolUse hook')
  await expect(card).toContainText('denied it: forbidden words are not run here')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('The hook refused it.')
})
