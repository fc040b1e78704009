import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, openWorkspaceAndProvider, test } from './harness'

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const GREET = 'export const greet = (name: string) => `Hello ${name}`\n'

// Two turns, a command, an edit and a restore on a machine that may be busy.
test.setTimeout(180_000)

test('checkpoints: since task start, restore files through the review, rewind the conversation, space in Settings', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: "printf 'generated\\n' > gen.txt && rm README.md" } }] },
    {
      toolCalls: [
        { name: 'write_to_file', input: { path: 'src/greet.ts', content: 'export const greet = () => "hi"\n' } }
      ]
    },
    completion('Built.'),
    completion('Polished.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Build it')
  await page.getByLabel('Message').press('Enter')
  const command = page.getByRole('group', { name: 'Tool call execute_command' })
  await command.getByRole('button', { name: 'Approve', exact: true }).click()
  const edit = page.getByRole('group', { name: 'Tool call write_to_file' })
  await edit
    .getByRole('group', { name: 'Changeset review' })
    .getByRole('button', { name: 'Accept all changes' })
    .click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Built.')
  await page.getByLabel('Message').fill('Now polish')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Polished.')).toBeVisible()
  expect(readFileSync(join(modus.workspace, 'gen.txt'), 'utf8')).toBe('generated\n')
  expect(existsSync(join(modus.workspace, 'README.md'))).toBe(false)

  // One diff from the task's start to now, the command's files included.
  const nav = page.getByRole('navigation', { name: 'Views' })
  await nav.getByRole('button', { name: 'Changes', exact: true }).click()
  await page.getByRole('button', { name: 'Since task start' }).click()
  const sinceStart = page.getByLabel('Changes since task start')
  await expect(sinceStart.getByRole('article')).toHaveCount(3)
  await expect(sinceStart.getByRole('article', { name: 'Since start: README.md' })).toContainText('delete')
  await expect(sinceStart.getByRole('article', { name: 'Since start: gen.txt' })).toContainText('create')
  await expect(sinceStart.getByRole('article', { name: 'Since start: src/greet.ts' })).toContainText('modify')

  // Restore files to before the first turn: a review, nothing written until accepted.
  await nav.getByRole('button', { name: 'Chat' }).click()
  const first = page.getByRole('group', { name: 'Checkpoint before “Build it”' })
  await first.getByRole('button', { name: 'Restore files to before this turn' }).click()
  const review = page.getByRole('group', { name: 'Changeset review' })
  await expect(review.getByRole('list', { name: 'Changed files' })).toContainText('gen.txt')
  await expect(review.getByRole('list', { name: 'Changed files' })).toContainText('README.md')
  expect(existsSync(join(modus.workspace, 'gen.txt'))).toBe(true)
  await review.getByRole('button', { name: 'Accept all changes' }).click()
  // The accepted files are written one after the other.
  await expect.poll(() => existsSync(join(modus.workspace, 'gen.txt'))).toBe(false)
  await expect.poll(() => readFileSync(join(modus.workspace, 'src', 'greet.ts'), 'utf8')).toBe(GREET)
  expect(readFileSync(join(modus.workspace, 'README.md'), 'utf8')).toBe('# Sample project\n')

  // Rewind the conversation to before the second turn: the files stay as they are.
  await nav.getByRole('button', { name: 'Chat' }).click()
  const second = page.getByRole('group', { name: 'Checkpoint before “Now polish”' })
  await second.getByRole('button', { name: 'Rewind the conversation to here' }).click()
  await second.getByRole('button', { name: 'Rewind', exact: true }).click()
  await expect(page.getByText('Polished.')).toHaveCount(0)
  await expect(page.locator('.bubble.user').filter({ hasText: 'Now polish' })).toHaveCount(0)
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Built.')
  expect(readFileSync(join(modus.workspace, 'README.md'), 'utf8')).toBe('# Sample project\n')

  // The space used, per workspace, in Settings.
  await nav.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('table', { name: 'Space used by checkpoints' })).toContainText('sample-project')
  await page.getByLabel('Skip files larger than (MB) in command snapshots').fill('8')
  await page.getByRole('button', { name: 'Save checkpoint settings' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Checkpoint settings saved.' })).toBeVisible()
  expect(JSON.parse(readFileSync(join(modus.dataDir, 'settings.json'), 'utf8')).checkpoints.maxFileMb).toBe(8)
  expect(modus.fake.failures).toEqual([])
})
