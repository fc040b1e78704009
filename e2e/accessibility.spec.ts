import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'

// axe-core over every view, in both themes, at a desktop and a small laptop size: 0 violations.

const VIEWS = ['Chat', 'Approvals', 'Changes', 'Terminal', 'Modes', 'MCP', 'History', 'Settings']
const SIZES = [
  { width: 1400, height: 900 },
  { width: 1024, height: 700 }
]

const GREET = `// Greets someone by name; the default is "world".
export const greet = (name: string = 'world', times = 2): string => \`Hello \${name}\`.repeat(times)
`

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white']
const ANSI_SAMPLE = [
  ...COLOURS.map((name, index) => `\\033[3${index}m${name}`),
  ...COLOURS.map((name, index) => `\\033[9${index}mbright-${name}`),
  '\\033[0m\\n'
].join(' ')

/** Each violation as "rule: target (summary)", so a failure names what to fix. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze()
  return result.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} [${violation.impact}]: ${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
  )
}

/** A task waiting on a review of src/greet.ts, and a user terminal that printed every ANSI colour. */
async function setUp(page: Page, modus: ModusHarness): Promise<void> {
  modus.fake.enqueue({
    text: 'Writing it.',
    // A change to existing code: removed and added lines, a comment, keywords, strings and numbers in Monaco.
    toolCalls: [{ name: 'write_to_file', input: { path: 'src/greet.ts', content: GREET } }]
  })
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Greet twice')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Changeset review' }).locator('.monaco-diff-editor .view-line').first()).toBeVisible({
    timeout: 30_000
  })
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Terminal', exact: true }).click()
  await page.getByRole('button', { name: 'New terminal' }).click()
  await expect(page.locator('.xterm-screen').first()).toBeVisible()
  // Every ANSI colour on the terminal's background, as a build or a test run prints them.
  await page.locator('.xterm-screen').first().click()
  await page.keyboard.type(`printf '${ANSI_SAMPLE}'\n`)
  await expect(page.locator('.xterm-rows')).toContainText('bright-cyan bright-white', { timeout: 30_000 })
}

for (const theme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    test(`every view has no axe violations in the ${theme} theme at ${size.width}×${size.height}`, async ({ page, modus }) => {
      test.setTimeout(300_000)
      await page.emulateMedia({ colorScheme: theme })
      await page.setViewportSize(size)
      await page.goto(modus.url)
      await expect(page.getByLabel('Folder path')).toBeVisible()
      const found: Record<string, string[]> = { 'Open a folder': await violations(page) }
      await setUp(page, modus)
      const nav = page.getByRole('navigation', { name: 'Views' })
      for (const view of VIEWS) {
        await nav.getByRole('button', { name: new RegExp(`^${view}`) }).click()
        await expect(nav.getByRole('button', { name: new RegExp(`^${view}`) })).toHaveAttribute('aria-current', 'page')
        if (view === 'Modes') {
          // The mode editor itself: Code, with its toggles, rules, file pattern tester and sandbox section.
          await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
          await expect(page.getByRole('heading', { name: 'Code', exact: true, level: 2 })).toBeVisible()
        }
        await page.waitForTimeout(300) // lazy views and Monaco settle
        found[view] = await violations(page)
      }
      await page.getByRole('banner').getByRole('button', { name: /switch folder/ }).click()
      found['Switch folder'] = await violations(page)
      expect(Object.fromEntries(Object.entries(found).filter(([, list]) => list.length > 0))).toEqual({})
    })
  }
}
