import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, type ModusHarness } from './harness'

// What the review specs share: a 20-line file, a proposal changing two far-apart lines (two hunks),
// and two tasks waiting at once (an edit, then a command) for the approval queue.

export const ORIGINAL = Array.from({ length: 20 }, (_, i) => `export const value${i + 1} = ${i + 1}`).join('\n') + '\n'
export const PROPOSED = ORIGINAL.replace('value2 = 2', 'value2 = 200').replace('value18 = 18', 'value18 = 1800')

export const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
export const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' })

/** Task alpha proposes the edit, task beta a command; both wait in the queue. Returns the edited file's path. */
export async function startEditAndCommandTasks(page: Page, modus: ModusHarness): Promise<string> {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, ORIGINAL)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo from-beta' } }] },
    completion('Finished.'),
    completion('Finished.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Task alpha')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Changeset review' })).toBeVisible()
  await page.getByRole('button', { name: 'New task' }).click()
  await page.getByLabel('Message').fill('Task beta')
  await page.getByLabel('Message').press('Enter')
  await expect(page).toHaveTitle('(2) Modus')
  return file
}

/** A task proposing PROPOSED for src/values.ts (holding `original`), reviewed in the Approvals view. */
export async function reviewProposal(
  page: Page,
  modus: ModusHarness,
  original = ORIGINAL
): Promise<{ file: string; review: Locator }> {
  const file = join(modus.workspace, 'src', 'values.ts')
  writeFileSync(file, original)
  modus.fake.enqueue(
    { toolCalls: [{ name: 'write_to_file', input: { path: 'src/values.ts', content: PROPOSED } }] },
    completion('Done.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Update the values')
  await page.getByLabel('Message').press('Enter')
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const review = page.getByRole('group', { name: 'Changeset review' })
  await expect(review.locator('.hunk')).toHaveCount(2)
  return { file, review }
}
