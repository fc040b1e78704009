import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test } from './harness'

// #28 item 11: a command's output streams into the chat under its card, the last lines as the
// terminal shows them (colours removed), and folds once the command ended; a reload keeps it.

// Prints 30 coloured lines, then waits for the test to create `release` before it ends.
const COMMAND =
  "for i in $(seq 1 30); do printf '\\033[32mline %s\\033[0m\\n' $i; done; " +
  'while [ ! -e release ]; do sleep 0.1; done; echo finished'

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

test('a running command shows the live tail of its output, folded once it ended and after a reload', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: COMMAND } }] },
    { toolCalls: [{ name: 'attempt_completion', input: { result: 'Ran it.' } }] }
  )
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Run the loop')
  const card = page.getByRole('group', { name: 'Tool call execute_command' })
  // Approve with the keyboard.
  await card.getByRole('button', { name: 'Approve', exact: true }).focus()
  await page.keyboard.press('Enter')

  const live = card.locator('.command-output-live')
  await expect(live.locator('.command-output-extent')).toHaveText('Output so far — last 12 of 30 lines')
  const text = live.getByLabel('Command output, last 12 of 30 lines')
  await expect(text).toHaveText(Array.from({ length: 12 }, (_, i) => `line ${i + 19}`).join('\n'))
  await expect(card.locator('.phase')).toHaveText('running')

  writeFileSync(join(modus.workspace, 'release'), '')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Ran it.')
  await expect(live).toHaveCount(0)
  const folded = card.locator('details.command-output')
  await expect(folded.locator('summary')).toHaveText('Output — last 12 of 31 lines')
  await expect(folded).not.toHaveAttribute('open', '')
  await folded.locator('summary').focus()
  await page.keyboard.press('Enter')
  await expect(folded.locator('pre')).toBeVisible()
  await expect(folded.locator('pre')).toContainText('line 30\nfinished')
  await expect(folded.locator('pre')).not.toContainText('\x1b')

  // The final output is in the tool result: the same folded tail after a reload.
  await page.reload()
  const reloaded = page.getByRole('group', { name: 'Tool call execute_command' }).locator('details.command-output')
  await expect(reloaded.locator('summary')).toHaveText('Output — last 12 of 31 lines')
  await reloaded.locator('summary').click()
  await expect(reloaded.locator('pre')).toHaveText(
    [...Array.from({ length: 11 }, (_, i) => `line ${i + 20}`), 'finished'].join('\n')
  )
  expect(modus.fake.failures).toEqual([])
})
