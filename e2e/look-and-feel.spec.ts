import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, openWorkspaceAndProvider, test } from './harness'
import { designProblems } from './design-system'
import { completion, nav, ORIGINAL, PROPOSED, reviewProposal } from './review-fixtures'

// Issue #28 item 22: tool cards say what happened in words; the mode picker is a keyboard menu
// that says what each mode is for, where its commands run and whether this folder trusts it.

test('tool cards say what happened in words, with the raw tool name on hover', async ({ page, modus }) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo words-$((6*7))' } }] },
    completion('Done.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Look around')
  await page.getByLabel('Message').press('Enter')
  const read = page.getByRole('group', { name: 'Tool call read_file' })
  await expect(read.locator('.tool-title')).toHaveText('Read README.md')
  await expect(read.locator('.tool-title')).toHaveAttribute('title', 'Tool: read_file')
  const command = page.getByRole('group', { name: 'Tool call execute_command' })
  await expect(command.locator('.tool-title')).toHaveText('Run echo words-$((6*7))')
  await command.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(command.locator('.tool-title')).toHaveText('Ran echo words-$((6*7)) — exit 0')
  await expect(command.locator('.tool-title code')).toHaveText('echo words-$((6*7))')
  await expect(command.locator('.tool-title')).toHaveAttribute('title', 'Tool: execute_command')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Done.')
})

test('an edit card counts the hunks that reached the disk', async ({ page, modus }) => {
  const { file, review } = await reviewProposal(page, modus)
  // The review in the queue is titled in the chat card's words too.
  const title = page.locator('.approval-card[aria-current="true"] .tool-title')
  await expect(title).toHaveText('Write src/values.ts')
  await expect(title).toHaveAttribute('title', 'Tool: write_to_file')
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value2 = 2', 'value2 = 200'))
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  const card = page.getByRole('group', { name: 'Tool call write_to_file' })
  await expect(card.locator('.tool-title')).toHaveText('Wrote src/values.ts — 1 of 2 hunks')
})

test('the mode picker is a menu that says what each mode is, where it runs commands and whether the folder trusts it', async ({
  page,
  modus
}) => {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'modes.yaml'),
    'customModes:\n  - slug: fast\n    name: Fast\n    description: Runs scripts quickly\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    autoApprove: { command: true }\n'
  )
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByRole('dialog', { name: /Trust/ }).getByRole('button', { name: 'Keep asking' }).click()
  await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
  await page.getByLabel(/Base URL/).fill(modus.fake.anthropicBaseUrl)
  await page.getByLabel('Model').fill('claude-sonnet-4-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()

  const button = page.getByRole('button', { name: 'Mode: Code' })
  await expect(button).toHaveAttribute('aria-haspopup', 'menu')
  await button.focus()
  await page.keyboard.press('Enter')
  const menu = page.getByRole('menu', { name: 'Modes' })
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  const code = menu.getByRole('menuitemradio', { name: /^Code/ })
  await expect(code).toBeFocused()
  await expect(code).toHaveAttribute('aria-checked', 'true')
  await expect(code).toContainText('Write and change code')
  await expect(code).toContainText('Sandbox on')
  await expect(code).toContainText('Built-in')
  const fast = menu.getByRole('menuitemradio', { name: /^Fast/ })
  await expect(fast).toContainText('Runs scripts quickly')
  await expect(fast).toContainText('Sandbox off')
  await expect(fast).toContainText('not trusted')

  // The open menu passes axe (both the menu and what it states).
  expect((await new AxeBuilder({ page }).include('.mode-menu').analyze()).violations).toEqual([])

  // Escape closes and gives the keyboard back to the button; End + Enter picks the last mode.
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(button).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('End')
  await expect(fast).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(menu).toBeHidden()
  await expect(page.getByRole('button', { name: 'Mode: Fast' })).toBeFocused()
  await expect(page.locator('select.mode-picker')).toHaveCount(0)
})

// One design system everywhere: every view, in both themes and at both window sizes, takes its spacing,
// type sizes, titles and buttons from the tokens in styles.css (computed styles read back and compared),
// every nav item carries an icon, and each view passes axe.

const VIEWS = ['Chat', 'Approvals', 'Changes', 'Terminal', 'Modes', 'MCP', 'History', 'Settings', 'Worktrees']

const LAYOUTS = [
  { theme: 'light', width: 1400, height: 900 },
  { theme: 'dark', width: 1024, height: 700 }
] as const

for (const { theme, width, height } of LAYOUTS) {
  test(`every view keeps to one spacing and type scale, one title size and one button hierarchy (${theme}, ${width}×${height})`, async ({
    page,
    modus
  }) => {
    test.setTimeout(360_000)
    // One task with what most views show: an applied edit (Changes), then a command waiting inside its card
    // and in the queue (Approvals), a terminal, a History row.
    const file = join(modus.workspace, 'src', 'values.ts')
    writeFileSync(file, ORIGINAL)
    modus.fake.enqueue(
      { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
      { toolCalls: [{ name: 'execute_command', input: { command: 'echo design-system' } }] },
      completion('Done.')
    )
    await openWorkspaceAndProvider(page, modus)
    await page.getByLabel('Message').fill('Change the values, then check')
    await page.getByLabel('Message').press('Enter')
    await page
      .getByRole('group', { name: 'Changeset review' })
      .getByRole('button', { name: 'Accept all changes' })
      .click()
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(PROPOSED)
    await expect(
      page
        .getByRole('group', { name: 'Tool call execute_command' })
        .getByRole('button', { name: 'Approve', exact: true })
      // Deciding how the command runs probes the sandbox first: slow on a loaded machine.
    ).toBeVisible({ timeout: 60_000 })

    await page.emulateMedia({ colorScheme: theme })
    await page.setViewportSize({ width, height })
    for (const name of VIEWS) {
      const item = nav(page).getByRole('button', { name: new RegExp(`^${name}`) })
      await item.click()
      await expect(item).toHaveAttribute('aria-current', 'page')
      // Each nav item shows a drawn icon beside its label, hidden from assistive tech.
      await expect(item.locator('svg.icon[aria-hidden="true"]')).toHaveCount(1)
      if (name === 'Modes')
        await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
      await expect(page.locator('.app-main h1').first()).toBeAttached()
      // No hover styles in what is measured.
      await page.mouse.move(0, height - 1)
      expect(await designProblems(page), `${name}, ${theme}, ${width}×${height}`).toEqual([])
      const axe = await new AxeBuilder({ page }).include('.app').analyze()
      expect(
        axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        `${name}, ${theme}`
      ).toEqual([])
    }
  })
}
