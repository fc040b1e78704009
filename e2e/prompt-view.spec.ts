import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, openWorkspaceAndProvider, test } from './harness'

test('the Modes view shows what a mode sends: prompt text, tools, rule files with tokens, skipped files with why', async ({
  page,
  modus,
  context
}) => {
  test.setTimeout(180_000)
  writeFileSync(join(modus.workspace, 'AGENTS.md'), 'Always write tests first.\n')
  mkdirSync(join(modus.workspace, '.cursor', 'rules'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.cursor', 'rules', 'ts.mdc'),
    '---\nglobs: src/**/*.ts\nalwaysApply: false\n---\nPrefer named exports.\n'
  )
  // A rule file that links out of the folder is not read, and the view says why.
  const outside = mkdtempSync(join(tmpdir(), 'modus-e2e-outside-'))
  writeFileSync(join(outside, 'secret.md'), 'Not for the model.\n')
  symlinkSync(join(outside, 'secret.md'), join(modus.workspace, 'CLAUDE.md'))
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])

  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
  const toggle = page.getByRole('button', { name: 'View system prompt' })
  // Reached and opened with the keyboard.
  await toggle.focus()
  await page.keyboard.press('Enter')
  const view = page.getByRole('region', { name: 'System prompt of Code' })
  await expect(view.getByRole('heading', { name: 'System prompt of Code' })).toBeFocused()

  const rules = view.getByRole('table', { name: 'Rule files included' })
  // The first count loads the o200k tables in the host: slow on a loaded machine.
  await expect(rules.getByRole('row')).toHaveCount(3, { timeout: 60_000 })
  await expect(rules.getByRole('row').nth(1)).toContainText(/AGENTS\.md\s*\d+\s*always/)
  await expect(rules.getByRole('row').nth(2)).toContainText('.cursor/rules/ts.mdc')
  await expect(rules.getByRole('row').nth(2)).toContainText('src/**/*.ts')
  await expect(view.getByRole('list', { name: 'Rule files skipped' })).toHaveText(
    'CLAUDE.md: links outside the workspace'
  )
  const tools = view.getByRole('list', { name: 'Tools offered' })
  await expect(tools).toContainText('execute_command')
  await expect(tools).toContainText('read_file')
  const text = view.getByLabel('System prompt text')
  await expect(text).toContainText('Always write tests first.')
  await expect(text).not.toContainText('Not for the model.')
  await expect(view).toContainText(/system prompt \d+ \+ tool definitions \d+ = \d+ tokens/)

  const violations = (await new AxeBuilder({ page }).include('.system-prompt').analyze()).violations
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])

  // Read-only and copyable: Copy puts the whole prompt on the clipboard.
  await view.getByRole('button', { name: 'Copy' }).click()
  await expect(view.getByRole('status')).toHaveText('System prompt copied.')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain('Always write tests first.')
  expect(copied).toBe(await text.textContent())

  // The prompt text is a keyboard stop (it scrolls); Close gives the focus back to the toggle.
  await text.focus()
  await expect(text).toBeFocused()
  await view.getByRole('button', { name: 'Close' }).click()
  await expect(view).toBeHidden()
  await expect(toggle).toBeFocused()
})
