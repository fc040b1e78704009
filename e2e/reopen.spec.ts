import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, openWorkspaceAndProvider, test } from './harness'

// Never lose the user's place: every new connection shows the running (or last) task.

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })

test('a reload and a second tab reopen the task that waits, not an empty chat', async ({ page, context, modus }) => {
  test.setTimeout(120_000) // two pages and two reloads
  modus.fake.enqueue(
    {
      text: 'Writing the notes first.',
      toolCalls: [{ name: 'write_to_file', input: { path: 'NOTES.md', content: 'still here\n' } }]
    },
    completion('Ran it.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Write the notes')
  await page.getByLabel('Message').press('Enter')
  const waiting = (p: typeof page) => p.getByRole('group', { name: 'Tool call write_to_file' })
  await expect(waiting(page).getByRole('group', { name: 'Changeset review' })).toBeVisible()

  await page.reload()
  await expect(waiting(page).getByRole('group', { name: 'Changeset review' })).toBeVisible()
  await expect(page.getByLabel('Message')).toHaveAttribute('placeholder', /Answer or give more instructions/)

  const second = await context.newPage()
  await second.goto(modus.url)
  await expect(second.getByText('Writing the notes first.')).toBeVisible()
  // Answered in the second tab; both show the finished task.
  await waiting(second).getByRole('button', { name: 'Accept all changes' }).click()
  const notes = join(modus.workspace, 'NOTES.md')
  // A new file: expect.poll gives up at the first throw, so a read before the write must not throw.
  await expect.poll(() => (existsSync(notes) ? readFileSync(notes, 'utf8') : null)).toBe('still here\n')
  await expect(second.getByRole('group', { name: 'Task result' })).toContainText('Ran it.')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Ran it.')

  // Once finished, a reload still shows the last task.
  await page.reload()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Ran it.')
})
