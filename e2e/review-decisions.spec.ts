import { readFileSync } from 'node:fs'
import { expect, test } from './harness'
import type { Locator, Page } from '@playwright/test'
import { nav, ORIGINAL, PROPOSED, reviewProposal, startEditAndCommandTasks } from './review-fixtures'

// Hunk decisions survive edits of the proposed side, the keyboard never writes into a review by
// accident, and what lands on disk is exactly what the review showed.

/** Replaces the end of the proposed line containing `line` with `typed`, as a user types it. */
async function editLineEnd(page: Page, review: Locator, line: string, erase: number, typed: string): Promise<void> {
  await review.locator('.monaco-diff-editor .editor.modified .view-lines').getByText(line).click()
  await page.keyboard.press('End')
  for (let n = 0; n < erase; n++) await page.keyboard.press('Backspace')
  await page.keyboard.type(typed)
}

const focusIsInEditor = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-diff-editor')))

test('a rejected hunk stays rejected when the user edits another hunk, and the disk gets exactly that', async ({
  page,
  modus
}) => {
  const { file, review } = await reviewProposal(page, modus)
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await expect(review).toContainText('1 of 2 hunks accepted')
  await editLineEnd(page, review, 'value2 = 200', 0, '1')
  await expect(review).toContainText('You edited the proposed side')
  await expect(review).toContainText('1 of 2 hunks accepted')
  await expect(review.getByRole('button', { name: 'Reject hunk 2' })).toHaveAttribute('aria-pressed', 'true')
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value2 = 2', 'value2 = 2001'))
})

test('typing inside a rejected hunk asks which wins; keeping it rejected writes the original lines', async ({
  page,
  modus
}) => {
  const { file, review } = await reviewProposal(page, modus)
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await editLineEnd(page, review, 'value18 = 1800', 0, '1')
  const question = review.locator('.hunk-question')
  await expect(question).toContainText('You edited inside hunk 2, which you had rejected')
  // Nothing can be sent while the question is open.
  await expect(review.getByRole('button', { name: 'Accept selected hunks' })).toBeDisabled()
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await expect(question).toHaveCount(0)
  await expect(review).toContainText('1 of 2 hunks accepted')
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value2 = 2', 'value2 = 200'))
})

test("typing inside a rejected hunk and then accepting it writes the user's edit", async ({ page, modus }) => {
  const { file, review } = await reviewProposal(page, modus)
  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await editLineEnd(page, review, 'value18 = 1800', 2, '99')
  await expect(review.locator('.hunk-question')).toBeVisible()
  await review.getByRole('button', { name: 'Accept hunk 2' }).click()
  await expect(review).toContainText('2 of 2 hunks accepted')
  await review.getByRole('button', { name: 'Accept all changes' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(PROPOSED.replace('value18 = 1800', 'value18 = 1899'))
})

test('Tab leaves the review editor without touching the file; after typing, Esc leaves it', async ({ page, modus }) => {
  const { file, review } = await reviewProposal(page, modus)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))

  await review.locator('.monaco-diff-editor .editor.modified .view-lines').getByText('value2 = 200').click()
  expect(await focusIsInEditor(page)).toBe(true)
  await page.keyboard.press('Tab')
  expect(await focusIsInEditor(page)).toBe(false)
  await expect(review).not.toContainText('You edited the proposed side')

  // Typing starts editing; Esc hands the keyboard back to the page, on the control after the editor.
  await editLineEnd(page, review, 'value2 = 200', 0, '7')
  await page.keyboard.press('Escape')
  expect(await focusIsInEditor(page)).toBe(false)
  await expect(review.getByLabel(/Reason or guidance for the model/)).toBeFocused()
  await review.getByRole('button', { name: 'Accept all changes' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(PROPOSED.replace('value2 = 200', 'value2 = 2007'))
  // Accepting unmounts the editor without Monaco complaining about disposed models.
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Done.')
  expect(errors.filter((message) => /disposed/i.test(message))).toEqual([])
})

test('`a` accepts an edit as its review stands and the keyboard moves on to the next item', async ({ page, modus }) => {
  const file = await startEditAndCommandTasks(page, modus)

  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  const selected = queue.locator('.approval-card[aria-current="true"]')
  await expect(selected).toContainText('src/values.ts')
  await selected.getByRole('button', { name: 'Reject hunk 2' }).click()
  await selected.focus()
  await page.keyboard.press('a')
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value2 = 2', 'value2 = 200'))
  await expect(selected).toContainText('echo from-beta')
  await expect(selected).toBeFocused()
  await page.keyboard.press('a')
  await expect(queue).toContainText('Nothing is waiting for you.')
  expect(modus.fake.failures).toEqual([])
})
