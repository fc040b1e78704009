import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { toolResultsIn } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'
import { saveScreenshot } from './screenshots'
import type { Page } from '@playwright/test'

const ORIGINAL = Array.from({ length: 20 }, (_, i) => `export const value${i + 1} = ${i + 1}`).join('\n') + '\n'
const PROPOSED = ORIGINAL.replace('value2 = 2', 'value2 = 200').replace('value18 = 18', 'value18 = 1800')
const ONLY_FIRST_HUNK = ORIGINAL.replace('value2 = 2', 'value2 = 200')

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })

async function startEditTask(page: Page, modus: ModusHarness, message: string): Promise<void> {
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill(message)
  await page.getByLabel('Message').press('Enter')
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' })

// Accepting, rejecting or leaving a review unmounts Monaco: it must not complain of disposed models
// ("TextModel got disposed before DiffEditorWidget model got reset").
const monacoErrors = new WeakMap<Page, string[]>()
test.beforeEach(({ page }) => {
  const errors: string[] = []
  monacoErrors.set(page, errors)
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
})
test.afterEach(({ page }) => {
  expect((monacoErrors.get(page) ?? []).filter((message) => /disposed/i.test(message))).toEqual([])
})

test('accepting one hunk and rejecting another writes exactly the accepted hunk', async ({ page, modus }) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    {
      text: 'Updating two values.',
      toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }]
    },
    completion('Updated value2.')
  )
  await startEditTask(page, modus, 'Update the values')
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const review = page.getByRole('group', { name: 'Changeset review' })
  await expect(review.getByRole('list', { name: 'Changed files' })).toContainText('src/values.ts')
  // Monaco's diff editor, loaded on demand from the app's own bundle.
  await expect(review.locator('.monaco-diff-editor')).toBeVisible()
  await expect(review.locator('.monaco-diff-editor .editor.modified')).toContainText('value18 = 1800')
  await expect(review.locator('.hunk')).toHaveCount(2)

  await review.getByRole('button', { name: 'Reject hunk 2' }).click()
  await expect(review).toContainText('1 of 2 hunks accepted')
  await saveScreenshot(page, 'review')
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()

  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ONLY_FIRST_HUNK)
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Updated value2.')
  const answered = modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1]
  expect(toolResultsIn(answered)[0].isError).toBeFalsy()
  expect(modus.fake.failures).toEqual([])
})

test('the proposed side is edited before accepting, inline view, and the change can be reverted', async ({
  page,
  modus
}) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    completion('Done.')
  )
  await startEditTask(page, modus, 'Update the values')
  // Reviewed right in the chat, from the tool card.
  const card = page.getByRole('group', { name: 'Tool call write_to_file' })
  await expect(card.getByRole('button', { name: 'Hide review' })).toHaveAttribute('aria-expanded', 'true')
  const review = card.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.monaco-diff-editor')).toBeVisible()
  await review.getByRole('button', { name: 'Inline view' }).click()
  await expect(review.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true')

  // Type into the proposed side: change 1800 to 1801.
  const modified = review.locator('.monaco-diff-editor .editor.modified .view-lines')
  await modified.getByText('value18 = 1800').click()
  await page.keyboard.press('End')
  await page.keyboard.press('Backspace')
  await page.keyboard.type('1')
  await expect(review).toContainText('You edited the proposed side')
  await review.getByRole('button', { name: 'Accept all changes' }).click()
  const expected = PROPOSED.replace('value18 = 1800', 'value18 = 1801')
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(expected)
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Done.')

  // The task's changes list shows it with its diff, and reverts it.
  await nav(page).getByRole('button', { name: 'Changes', exact: true }).click()
  const row = page.getByRole('article', { name: 'Change to src/values.ts' })
  await expect(row.locator('.status-chip')).toContainText('applied')
  await row.getByRole('button', { name: 'Show diff' }).click()
  await expect(row.locator('.monaco-diff-editor')).toBeVisible()
  // Reverting is reviewed like any change: nothing is written until the review is accepted.
  await row.getByRole('button', { name: 'Revert…' }).click()
  const revert = page.getByRole('region', { name: 'Approvals' }).getByRole('group', { name: 'Changeset review' })
  await revert.getByRole('button', { name: 'Accept all changes' }).click()
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL)
  await nav(page).getByRole('button', { name: 'Changes', exact: true }).click()
  // The revert is listed after it, as a change of its own.
  await expect(row.first().locator('.status-chip')).toContainText('reverted')
  await expect(row.nth(1)).toContainText('Revert')
})

test('rejecting the changeset with a reason leaves the file alone and tells the model', async ({ page, modus }) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    {
      toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }]
    },
    completion('Left as is.')
  )
  await startEditTask(page, modus, 'Update the values')
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const review = page.getByRole('group', { name: 'Changeset review' })
  await review.getByLabel(/Reason or guidance for the model/).fill('Values must stay below 100')
  await review.getByRole('button', { name: 'Reject all changes' }).click()
  await expect.poll(() => modus.fake.requests.filter((r) => r.protocol === 'anthropic').length).toBe(2)
  const next = modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1]
  expect(JSON.stringify(toolResultsIn(next))).toContain('Values must stay below 100')
  expect(readFileSync(file, 'utf8')).toBe(ORIGINAL)
})

test('a file changed on disk while the review waits is shown as a conflict before and after accepting', async ({
  page,
  modus
}) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    completion('Noted the conflict.')
  )
  await startEditTask(page, modus, 'Update the values')
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const review = page.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.hunk')).toHaveCount(2)
  // Someone edits the same lines meanwhile.
  const theirs = ORIGINAL.replace('value2 = 2', 'value2 = 7').replace('value18 = 18', 'value18 = 9')
  writeFileSync(file, theirs)
  // The waiting review notices it before the user accepts.
  await expect(review.locator('.conflict')).toContainText(
    'Conflict: src/values.ts changed on disk since the change was proposed'
  )
  await expect(review.getByRole('button', { name: 'src/values.ts, modify, conflict' })).toBeVisible()
  await review.getByRole('button', { name: 'Accept all changes' }).click()
  await nav(page).getByRole('button', { name: 'Changes', exact: true }).click()
  const row = page.getByRole('article', { name: 'Change to src/values.ts' })
  await expect(row.locator('.conflict')).toContainText(/Conflict: .*(changed|conflict)/i)
  await expect(row.locator('.status-chip')).toContainText('failed')
  expect(readFileSync(file, 'utf8')).toBe(theirs)
  // The chat's tool card says why the file was not written.
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('list', { name: 'Files changed' })).toContainText(
    /src\/values\.ts — failed .*changed on disk/
  )
})

test('one call editing two files is reviewed as one changeset with a file list', async ({ page, modus }) => {
  const greet = join(modus.workspace, 'src', 'greet.ts')
  const farewell = join(modus.workspace, 'src', 'farewell.ts')
  const before = readFileSync(greet, 'utf8')
  const patch = [
    '*** Begin Patch',
    '*** Update File: src/greet.ts',
    '@@',
    '-export const greet = (name: string) => `Hello ${name}`',
    '+export const greet = (name: string) => `Hi ${name}`',
    '*** Add File: src/farewell.ts',
    '+export const farewell = (name: string) => `Bye ${name}`',
    '*** End Patch'
  ].join('\n')
  modus.fake.enqueue({ toolCalls: [{ name: 'apply_patch', input: { patch } }] }, completion('Greeting changed.'))
  // GPT models get apply_patch (one call, several files); this goes through the OpenAI wire format.
  await openWorkspaceAndProvider(page, modus, 'openai')
  await page.getByLabel('Message').fill('Say hi, and add a farewell')
  await page.getByLabel('Message').press('Enter')
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const review = page.getByRole('group', { name: 'Changeset review' })
  const files = review.getByRole('list', { name: 'Changed files' })
  await expect(files.getByRole('button')).toHaveText([/src\/greet\.ts/, /src\/farewell\.ts/])
  await expect(review).toContainText('2 files')

  await files.getByRole('button', { name: 'src/farewell.ts, create' }).click()
  await expect(review.locator('.monaco-diff-editor .editor.modified')).toContainText('Bye ${name}')
  await review.getByRole('button', { name: 'Reject hunk 1' }).click()
  await expect(files.getByRole('button', { name: 'src/farewell.ts, create' })).toContainText('skipped')
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()

  await expect.poll(() => readFileSync(greet, 'utf8')).toBe(before.replace('Hello', 'Hi'))
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Greeting changed.')
  expect(() => readFileSync(farewell, 'utf8')).toThrow()
})

test('the review works from the keyboard alone, with a visible focus and named controls', async ({ page, modus }) => {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    completion('Updated value18.')
  )
  await startEditTask(page, modus, 'Update the values')
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .focus()
  await page.keyboard.press('Enter')
  const review = page.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.monaco-diff-editor')).toBeVisible()

  // Every control has a name a screen reader can say.
  const unnamed = await page.locator('button, select, textarea, input').evaluateAll((elements) =>
    elements
      .filter((element) => !element.closest('.monaco-editor, .monaco-diff-editor'))
      .filter((element) => {
        const labelled =
          element.getAttribute('aria-label') ||
          element.textContent?.trim() ||
          (element as HTMLInputElement).labels?.[0]?.textContent?.trim()
        return !labelled
      })
      .map((element) => element.outerHTML.slice(0, 120))
  )
  expect(unnamed).toEqual([])

  // Tab from the first hunk's reject button to the second hunk's, reject it with Space.
  await review.getByRole('button', { name: 'Reject hunk 1' }).focus()
  await page.keyboard.press('Tab') // the second hunk's header
  await page.keyboard.press('Tab') // Accept hunk 2
  await page.keyboard.press('Tab') // Reject hunk 2
  const rejectSecond = review.getByRole('button', { name: 'Reject hunk 2' })
  await expect(rejectSecond).toBeFocused()
  const outline = await rejectSecond.evaluate((element) => getComputedStyle(element).outlineStyle)
  expect(outline).not.toBe('none')
  // Now reject hunk 1 instead, keep hunk 2.
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Space')
  await review.getByRole('button', { name: 'Reject hunk 1' }).focus()
  await page.keyboard.press('Enter')
  await expect(review).toContainText('1 of 2 hunks accepted')
  await review.getByRole('button', { name: 'Accept selected hunks' }).focus()
  await page.keyboard.press('Enter')
  await expect.poll(() => readFileSync(file, 'utf8')).toBe(ORIGINAL.replace('value18 = 18', 'value18 = 1800'))
})

test('a review in the chat uses the full width; narrow windows get the inline view and a folded file list', async ({
  page,
  modus
}) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  writeFileSync(join(modus.workspace, 'src', 'values.ts'), ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    completion('Done.')
  )
  await startEditTask(page, modus, 'Update the values')
  const card = page.getByRole('group', { name: 'Tool call write_to_file' })
  const review = card.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.monaco-diff-editor')).toBeVisible()
  const widthOf = async (selector: string) => (await page.locator(selector).first().boundingBox())!.width
  // The card spans the chat column (its padding aside), not a text-width column.
  const column = await widthOf('.chat-scroller')
  expect(await widthOf('.tool-card:has(.changeset)')).toBeGreaterThan(column - 60)
  expect(await widthOf('.tool-card:has(.changeset)')).toBeGreaterThan(1000)
  await expect(review.getByRole('button', { name: 'Inline view' })).toHaveAttribute('aria-pressed', 'false')
  await expect(review.getByRole('list', { name: 'Changed files' })).toBeVisible()
  // The file list folds away, and the diff takes its room.
  const before = await widthOf('.monaco-diff-editor')
  await review.getByRole('button', { name: 'Hide files' }).click()
  await expect(review.getByRole('list', { name: 'Changed files' })).toBeHidden()
  await expect.poll(() => widthOf('.monaco-diff-editor')).toBeGreaterThan(before + 100)

  // At 1024 px: inline by itself, a single file's list folded; the user may still choose.
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.reload()
  const narrow = page
    .getByRole('group', { name: 'Tool call write_to_file' })
    .getByRole('group', { name: 'Changeset review' })
  await expect(narrow.locator('.monaco-diff-editor')).toBeVisible()
  await expect(narrow.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true')
  await expect(narrow.getByRole('list', { name: 'Changed files' })).toBeHidden()
  await expect(narrow.getByRole('button', { name: 'Show files' })).toHaveAttribute('aria-expanded', 'false')
  expect(await widthOf('.tool-card:has(.changeset)')).toBeGreaterThan((await widthOf('.chat-scroller')) - 60)
  await expect(narrow.locator('.monaco-diff-editor .editor.modified')).toContainText('value18 = 1800')
  await narrow.getByRole('button', { name: 'Side by side' }).click()
  await expect(narrow.getByRole('button', { name: 'Inline view' })).toHaveAttribute('aria-pressed', 'false')
})
