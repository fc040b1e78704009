import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, openWorkspaceAndProvider, test } from './harness'

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const write = (content: string) => ({
  toolCalls: [{ name: 'write_to_file', input: { path: 'src/greet.ts', content } }]
})

/** The sample workspace as a git repository with one commit, as isolated tasks need. */
function commitWorkspace(root: string): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid'
  }
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '.'],
    ['commit', '-q', '-m', 'base']
  ])
    execFileSync('git', args, { cwd: root, env })
}

test('two tasks in worktrees from the UI: approved from the queue without touching the working tree, one opened in the review', async ({
  page,
  modus
}) => {
  // Two tasks, two worktrees and their git calls on a shared machine: more than the default minute.
  test.setTimeout(180_000)
  commitWorkspace(modus.workspace)
  modus.fake.enqueue(
    write('export const greet = () => "one"\n'),
    write('export const greet = () => "two"\n'),
    completion('One done.'),
    completion('Two done.')
  )
  await openWorkspaceAndProvider(page, modus)
  const nav = page.getByRole('navigation', { name: 'Views' })
  await nav.getByRole('button', { name: 'Worktrees' }).click()
  const view = page.getByRole('region', { name: 'Worktrees' })
  const list = view.getByRole('list', { name: 'Isolated tasks' })

  for (const [text, name] of [
    ['Greet with one', 'one'],
    ['Greet with two', 'two']
  ]) {
    await view.getByRole('button', { name: 'Task in a worktree…' }).click()
    await view.getByLabel('What should the task do?').fill(text)
    await view.getByLabel(/^Name/).fill(name)
    await view.getByRole('button', { name: 'Start in a worktree' }).click()
    await expect(list.getByRole('listitem', { name: text })).toContainText('waiting for approval')
    await expect(list.getByRole('listitem', { name: text })).toContainText(`modus/${name}`)
  }

  // The queue says which worktree each item belongs to; each is approved there.
  await nav.getByRole('button', { name: /Approvals/ }).click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  for (const text of ['Greet with one', 'Greet with two']) {
    const group = queue.getByRole('region', { name: `Task: ${text}` })
    await expect(group.getByRole('heading')).toContainText('worktree modus/')
    await group.locator('.approval-card').click()
    await group.getByRole('button', { name: 'Accept all changes' }).click()
    await expect(group).toHaveCount(0)
  }
  // Neither task touched the working tree.
  expect(readFileSync(join(modus.workspace, 'src', 'greet.ts'), 'utf8')).toContain('Hello')

  await nav.getByRole('button', { name: 'Worktrees' }).click()
  const one = list.getByRole('listitem', { name: 'Greet with one' })
  await expect(one).toContainText('done', { timeout: 60_000 })
  await expect(one).toContainText('1 changed file')
  await one.getByRole('button', { name: 'Review changes' }).click()
  const review = view.getByRole('region', { name: 'Changes of Greet with one' })
  // The task's change against its base commit, in the Monaco review, file and hunk level.
  await expect(review.getByRole('button', { name: 'Accept all changes' })).toBeVisible()
  await expect(review.getByRole('textbox', { name: 'Proposed src/greet.ts (editable)' })).toBeAttached()
  // TODO(h2): applying from here lost the web host's connection in the one run before the deadline;
  // the apply itself is covered with real git in test/core/worktrees/apply.test.ts.
})
