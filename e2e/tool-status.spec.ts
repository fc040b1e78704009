import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test } from './harness'

// Each state of a tool call has its own chip, in the user's words, and the cards around it say what
// happened without internal names, raw JSON or empty bubbles.

const ORIGINAL = Array.from({ length: 20 }, (_, i) => `export const value${i + 1} = ${i + 1}`).join('\n') + '\n'
const PROPOSED = ORIGINAL.replace('value2 = 2', 'value2 = 200').replace('value18 = 18', 'value18 = 1800')
const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const cards = (page: Page, tool: string): Locator => page.getByRole('group', { name: `Tool call ${tool}` })

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

test('a failed command shows its exit code, a partly accepted edit its hunks, a call after a rejection "skipped"', async ({
  page,
  modus
}) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: 'ls no-such-file' } }] },
    {
      toolCalls: [
        { name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } },
        { name: 'read_file', input: { path: 'README.md' } }
      ]
    },
    {
      toolCalls: [
        { name: 'execute_command', input: { command: 'rm -rf src' } },
        { name: 'read_file', input: { path: 'src/greet.ts' } }
      ]
    },
    completion('Stopped as asked.')
  )
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Tidy the values')

  // A single command: approve, reject or always allow — no turn-wide buttons with nothing behind it.
  const command = cards(page, 'execute_command').first()
  await expect(command.locator('.phase')).toHaveText('waiting for approval')
  await expect(command.locator('.approval-buttons button')).toHaveText([
    'Approve',
    'Reject…',
    'Always allow in this mode…'
  ])
  // Why it asks, as a sentence; the rule id only on hover.
  await expect(command.locator('.tool-decision')).toHaveText(
    "Waiting for your approval: No allow rule matches 'ls no-such-file'."
  )
  await expect(command.locator('.tool-decision')).toHaveAttribute('title', 'Policy rule: no-matching-rule')
  await command.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(command.locator('.phase')).toHaveText('failed (exit 2)')

  // The edit waits for its review; the read after it is complete and waits its turn, arguments readable.
  const write = cards(page, 'write_to_file')
  const review = write.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.hunk')).toHaveCount(2)
  const queued = cards(page, 'read_file').first()
  await expect(queued.locator('.phase')).toHaveText('queued')
  await expect(queued.locator('.tool-args')).toContainText('README.md')
  await expect(queued).not.toContainText('{"path"')
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  await expect(write.locator('.phase')).toHaveText('applied 1 of 2 hunks')
  await expect(write.getByRole('list', { name: 'Files changed' })).toContainText('src/values.ts — applied 1 of 2 hunks')
  expect(readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value2 = 2', 'value2 = 200'))
  await expect(queued.locator('.phase')).toHaveText('done')

  // Two calls in one message: now the turn-wide answers fit. Rejecting the first skips the second.
  const remove = cards(page, 'execute_command').nth(1)
  await expect(remove.locator('.approval-buttons')).toContainText('Approve whole turn')
  await remove.getByRole('button', { name: 'Reject…' }).click()
  await remove.getByLabel(/The reason goes to the model/).fill('Keep the sources')
  await remove.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(remove.locator('.phase')).toHaveText('rejected')
  const skipped = cards(page, 'read_file').nth(1)
  await expect(skipped.locator('.phase')).toHaveText('skipped')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Stopped as asked.')

  // No turn here had words: no empty assistant bubble anywhere.
  await expect(page.locator('.bubble.assistant')).toHaveCount(0)
  expect(modus.fake.failures).toEqual([])
})

test('an edit the user changed says "edited by you"; a write left waiting when the task is cancelled says "cancelled"', async ({
  page,
  modus
}) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/other.ts', content: 'export const other = 1\n' } }] }
  )
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Update the values')

  const first = cards(page, 'write_to_file').first()
  const review = first.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.hunk')).toHaveCount(2)
  await review.locator('.monaco-diff-editor .editor.modified .view-lines').getByText('value2 = 200').click()
  await page.keyboard.press('End')
  await page.keyboard.type('1')
  await expect(review).toContainText('You edited the proposed side')
  await page.keyboard.press('Escape')
  await review.getByRole('button', { name: 'Accept all changes' }).click()
  await expect(first.locator('.phase')).toHaveText('edited by you')
  await expect(first.getByRole('list', { name: 'Files changed' })).toContainText(
    'src/values.ts — applied with your edits'
  )
  expect(readFileSync(file, 'utf8')).toBe(PROPOSED.replace('value2 = 200', 'value2 = 2001'))

  const second = cards(page, 'write_to_file').nth(1)
  await expect(second.locator('.phase')).toHaveText('waiting for approval')
  await page.getByRole('button', { name: 'Cancel', exact: true }).click()
  await expect(second.locator('.phase')).toHaveText('cancelled')
  await expect(second.getByRole('list', { name: 'Files changed' })).toContainText(
    'src/other.ts — not written (cancelled)'
  )
  await expect(second.locator('.tool-decision')).toHaveText('The task was stopped before you answered')
  await expect(second.locator('.phase')).not.toHaveText(/done|rejected/)
})
