import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'
import type { Locator, Page } from '@playwright/test'
import { completion, nav, ORIGINAL, PROPOSED, reviewProposal, startEditAndCommandTasks } from './review-fixtures'

// A review in progress is the user's work: hunk decisions and edits of the proposed side survive
// moving to another item, another view, or a reload, and what is written is what they left.

const REVIEWED = ORIGINAL.replace('value2 = 2', 'value2 = 2005')

async function editLineEnd(page: Page, review: Locator, line: string, typed: string): Promise<void> {
  await review.locator('.monaco-diff-editor .editor.modified .view-lines').getByText(line).click()
  await page.keyboard.press('End')
  await page.keyboard.type(typed)
}

/** The review as the user left it: hunk 2 rejected, hunk 1 edited to 2005. */
async function expectReviewKept(review: Locator): Promise<void> {
  await expect(review).toContainText('1 of 2 hunks accepted')
  await expect(review).toContainText('You edited the proposed side')
  await expect(review.getByRole('button', { name: 'Reject hunk 2' })).toHaveAttribute('aria-pressed', 'true')
  await expect(review.locator('.monaco-diff-editor .editor.modified')).toContainText('value2 = 2005')
}

test('hunk decisions and edits survive moving to another item, another view and a reload', async ({ page, modus }) => {
  test.setTimeout(120_000)
  const file = await startEditAndCommandTasks(page, modus)

  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  const selected = queue.locator('.approval-card[aria-current="true"]')
  const review = selected.getByRole('group', { name: 'Changeset review' })
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await expect(review).toContainText('1 of 2 hunks accepted')
  await editLineEnd(page, review, 'value2 = 200', '5')
  await expectReviewKept(review)

  // Another item, and back.
  await page.keyboard.press('Escape')
  await selected.focus()
  await page.keyboard.press('j')
  await expect(selected).toContainText('echo from-beta')
  await page.keyboard.press('k')
  await expect(selected).toContainText('src/values.ts')
  await expectReviewKept(review)

  // The chat shows the same review, not a fresh one.
  await selected.getByRole('button', { name: 'Open in chat' }).click()
  const inChat = page
    .getByRole('group', { name: 'Tool call write_to_file' })
    .getByRole('group', { name: 'Changeset review' })
  await expectReviewKept(inChat)

  // A reload keeps it too.
  await page.reload()
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  await expect(selected).toContainText('src/values.ts')
  await expectReviewKept(review)
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(REVIEWED)
  expect(modus.fake.failures).toEqual([])
})

/** One message: an edit of src/values.ts, then a command, both asked. */
async function editThenCommand(page: Page, modus: ModusHarness): Promise<string> {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    {
      toolCalls: [
        { name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } },
        { name: 'execute_command', input: { command: 'echo after-the-edit' } }
      ]
    },
    completion('Both done.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Edit, then run')
  await page.getByLabel('Message').press('Enter')
  return file
}

test('"Approve whole turn" on an edit writes it as reviewed, and a folded review still answers with its decisions', async ({
  page,
  modus
}) => {
  const file = await editThenCommand(page, modus)
  const card = page.getByRole('group', { name: 'Tool call write_to_file' })
  const review = card.getByRole('group', { name: 'Changeset review' })
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await expect(review).toContainText('1 of 2 hunks accepted')
  // Folding the review keeps it; the card's own button says what it will do.
  await card.getByRole('button', { name: 'Hide review' }).click()
  await expect(card.getByRole('button', { name: 'Accept selected hunks' })).toBeVisible()
  await card.getByRole('button', { name: 'Approve whole turn' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value2 = 2', 'value2 = 200'))
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Both done.')
  const command = page.getByRole('group', { name: 'Tool call execute_command' })
  await expect(command.locator('.tool-result-text')).toContainText('after-the-edit')
  expect(modus.fake.failures).toEqual([])
})

test('Shift+A on an edit in the queue approves the turn with the review as it stands', async ({ page, modus }) => {
  const file = await editThenCommand(page, modus)
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const selected = page.getByRole('region', { name: 'Approvals' }).locator('.approval-card[aria-current="true"]')
  const review = selected.getByRole('group', { name: 'Changeset review' })
  await review.getByRole('button', { name: 'Reject hunk 1' }).click()
  // The diff redraws the rejected hunk: click the line only once the review has settled.
  await expect(review).toContainText('1 of 2 hunks accepted')
  await editLineEnd(page, review, 'value18 = 1800', '1')
  await expect(review.locator('.monaco-diff-editor .editor.modified .view-lines')).toContainText('value18 = 18001')
  await page.keyboard.press('Escape')
  await selected.focus()
  await page.keyboard.press('Shift+A')
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value18 = 18', 'value18 = 18001'))
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Both done.')
  expect(modus.fake.failures).toEqual([])
})

test('a CRLF file edited in the review keeps CRLF, and the disk gets exactly the reviewed lines', async ({
  page,
  modus
}) => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n')
  const { file, review } = await reviewProposal(page, modus, crlf(ORIGINAL))
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await editLineEnd(page, review, 'value2 = 200', '5')
  await page.keyboard.press('Enter')
  await page.keyboard.type('export const added = 0')
  await expect(review).toContainText('1 of 2 hunks accepted')
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  const expected = crlf(ORIGINAL.replace('value2 = 2\n', 'value2 = 2005\nexport const added = 0\n'))
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(expected)
})
