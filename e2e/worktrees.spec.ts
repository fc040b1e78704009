import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Locator } from '@playwright/test'
import type { RecordedRequest, TurnFunction } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'

/** Twenty numbered lines: a task's edit of lines 2, 10 and 18 is three hunks. */
const NAMES = Array.from({ length: 20 }, (_, n) => `export const name${n + 1} = 'n${n + 1}'\n`).join('')
const withLines = (text: string, lines: Record<number, string>): string =>
  text
    .split('\n')
    .map((line, index) => lines[index + 1] ?? line)
    .join('\n')

/**
 * A dev server on the task shell's `$PORT` (127.0.0.1): it answers with where it runs and what it
 * finds there, and stops on `/stop` or by itself after two minutes.
 */
const SERVER = `const http = require('node:http')
const fs = require('node:fs')
const port = Number(process.env.PORT)
const server = http.createServer((req, res) => {
  if (req.url === '/stop') return res.end('bye', () => process.exit(0))
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify({ port, cwd: process.cwd(), env: fs.readFileSync('.env', 'utf8'), setup: fs.existsSync('.setup-done') }))
})
server.on('error', (error) => {
  console.error('server failed: ' + error.code)
  process.exit(1)
})
server.listen(port, '127.0.0.1', () => console.log('listening on ' + port))
setTimeout(() => process.exit(0), 120000).unref()
`

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' })
const onPath = (program: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, program)))

/** The sample workspace as a git repository with one commit, `.env` ignored (present only in the main tree). */
function commitWorkspace(root: string): void {
  writeFileSync(join(root, 'src', 'names.ts'), NAMES)
  writeFileSync(join(root, 'serve.js'), SERVER)
  writeFileSync(join(root, '.gitignore'), '.env\n.setup-done\n')
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
  writeFileSync(join(root, '.env'), 'DATABASE_URL=postgres://localhost/sample\n')
}

const TASK_ONE_NAMES = withLines(NAMES, {
  2: "export const name2 = 'two'",
  10: "export const name10 = 'ten'",
  18: "export const name18 = 'eighteen'"
})

/**
 * Both tasks' conversations, served to whichever asks: its task text says which, and how many
 * answers the model gave so far says which step. Each edits, then serves on `$PORT`, then finishes.
 */
const conversation: TurnFunction = (request: RecordedRequest) => {
  const body = JSON.stringify(request.body)
  const who = /Greet with (one|two)/.exec(body)?.[1] ?? '?'
  const step = (request.body?.messages ?? []).filter((m: { role: string }) => m.role === 'assistant').length
  if (step === 0) {
    return who === 'one'
      ? { toolCalls: [{ name: 'write_to_file', input: { path: 'src/names.ts', content: TASK_ONE_NAMES } }] }
      : {
          toolCalls: [
            { name: 'write_to_file', input: { path: 'src/greet.ts', content: 'export const greet = () => "two"\n' } }
          ]
        }
  }
  if (step === 1)
    return { toolCalls: [{ name: 'execute_command', input: { command: 'node serve.js', outside_sandbox: true } }] }
  return { toolCalls: [{ name: 'attempt_completion', input: { result: `Served ${who}.` } }] }
}

/** The one pending item of a task's group in the queue, once it reads `name`. */
async function approveInQueue(group: Locator, name: RegExp, button: 'Approve' | 'Accept all changes'): Promise<void> {
  const card = group.getByRole('article', { name })
  await expect(card).toBeVisible({ timeout: 60_000 })
  await card.click()
  await group.getByRole('button', { name: button, exact: true }).click()
  await expect(card).toHaveCount(0)
}

interface Served {
  port: number
  cwd: string
  env: string
  setup: boolean
}
const served = async (port: number): Promise<Served | null> =>
  fetch(`http://127.0.0.1:${port}/`).then(
    (response) => response.json() as Promise<Served>,
    () => null
  )

test('two tasks in worktrees from the UI: runnable (.env, setup, own port), approved from the queue, one reviewed and applied hunk by hunk', async ({
  page,
  modus
}) => {
  // Two tasks, two worktrees, six approvals and their git calls on a shared machine: more than the default minute.
  test.setTimeout(240_000)
  commitWorkspace(modus.workspace)
  for (let turn = 0; turn < 6; turn++) modus.fake.enqueue(conversation)
  await openWorkspaceAndProvider(page, modus)
  const nav = page.getByRole('navigation', { name: 'Views' })

  // Settings → Worktrees: .env is offered (ignored, present), copied only once listed; a setup command.
  await nav.getByRole('button', { name: 'Settings' }).click()
  const worktreeSettings = page.getByRole('form', { name: 'Worktree settings' })
  await worktreeSettings.getByRole('button', { name: 'Copy .env' }).click()
  await worktreeSettings.getByLabel(/^Setup command/).fill('touch .setup-done')
  await worktreeSettings.getByRole('button', { name: 'Save worktree settings' }).click()
  await expect(worktreeSettings.getByRole('status')).toHaveText('Worktree settings saved.')

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
    // Making a worktree (git worktree add, the copy, the task's start) can pass 10 s on a loaded machine.
    await expect(list.getByRole('listitem', { name: text })).toContainText(`modus/${name}`, { timeout: 60_000 })
  }
  const portOf = async (text: string): Promise<number> =>
    Number(/port (\d+)/.exec((await list.getByRole('listitem', { name: text }).textContent()) ?? '')?.[1])
  const ports = [await portOf('Greet with one'), await portOf('Greet with two')]
  expect(ports[0]).not.toBe(ports[1])

  // The queue names each item's worktree; the setup command, the edit and the server of each are approved there.
  await nav.getByRole('button', { name: /Approvals/ }).click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  const groups = ['Greet with one', 'Greet with two'].map((text) =>
    queue.getByRole('region', { name: `Task: ${text}` })
  )
  for (const group of groups) {
    await expect(group.getByRole('heading')).toContainText('worktree modus/')
    await approveInQueue(group, /touch \.setup-done/, 'Approve')
  }
  for (const group of groups) await approveInQueue(group, /names\.ts|greet\.ts/, 'Accept all changes')
  for (const group of groups) await approveInQueue(group, /node serve\.js/, 'Approve')
  // Neither task touched the working tree.
  expect(readFileSync(join(modus.workspace, 'src', 'names.ts'), 'utf8')).toBe(NAMES)

  // Both servers answer at once, each on its own task's port, from its own worktree with the copied .env and the setup's file.
  const answers: Served[] = []
  for (const port of ports) {
    await expect.poll(() => served(port), { timeout: 60_000 }).not.toBeNull()
    answers.push((await served(port))!)
  }
  for (const [index, answer] of answers.entries()) {
    expect(answer.port).toBe(ports[index])
    expect(answer.cwd.startsWith(join(modus.dataDir, 'worktrees'))).toBe(true)
    expect(answer.cwd.endsWith(index === 0 ? 'one' : 'two')).toBe(true)
    expect(answer.env).toBe('DATABASE_URL=postgres://localhost/sample\n')
    expect(answer.setup).toBe(true)
    expect(existsSync(join(answer.cwd, '.setup-done'))).toBe(true)
  }
  expect(existsSync(join(modus.workspace, '.setup-done'))).toBe(false)
  for (const port of ports) await fetch(`http://127.0.0.1:${port}/stop`)

  await nav.getByRole('button', { name: 'Worktrees' }).click()
  const one = list.getByRole('listitem', { name: 'Greet with one' })
  await expect(one).toContainText('done', { timeout: 60_000 })
  await expect(list.getByRole('listitem', { name: 'Greet with two' })).toContainText('done', { timeout: 60_000 })
  await expect(one).toContainText('1 changed file')

  // Meanwhile the user changed line 18 locally: the task's third hunk there is a conflict, never written.
  const local = withLines(NAMES, { 18: "export const name18 = 'mine'" })
  writeFileSync(join(modus.workspace, 'src', 'names.ts'), local)
  await one.getByRole('button', { name: 'Review changes' }).click()
  const review = view.getByRole('region', { name: 'Changes of Greet with one' })
  await expect(review.getByRole('alert').filter({ hasText: 'Conflict' })).toContainText('You changed this file locally')
  // The file starts unticked (it has a conflict): hunk 1 and the conflicting hunk 3 are accepted, hunk 2 not.
  await review.getByRole('button', { name: 'Accept hunk 1' }).click()
  await review.getByRole('button', { name: 'Accept hunk 3' }).click()
  await expect(review.getByRole('button', { name: 'Reject hunk 2' })).toHaveAttribute('aria-pressed', 'true')
  await review.getByRole('button', { name: 'Accept selected hunks' }).click()
  const outcome = view.getByRole('status', { name: 'Apply result' })
  await expect(outcome).toContainText('Written: src/names.ts')
  await expect(outcome).toContainText('src/names.ts')
  await expect(outcome).toContainText('You changed these lines in your working tree.')
  // Exactly the accepted hunk reached the file; the user's line stays; the rejected hunk did not come.
  expect(readFileSync(join(modus.workspace, 'src', 'names.ts'), 'utf8')).toBe(
    withLines(local, { 2: "export const name2 = 'two'" })
  )
  expect(readFileSync(join(modus.workspace, 'src', 'greet.ts'), 'utf8')).toContain('Hello')

  // "Merge branch" proposes git merge as a command: it waits in the queue, and rejected, nothing ran.
  const head = git(modus.workspace, 'rev-parse', 'HEAD')
  const two = list.getByRole('listitem', { name: 'Greet with two' })
  await two.getByRole('button', { name: 'Merge branch' }).click()
  await expect(two.getByRole('status')).toContainText('Proposed: git merge --no-ff --no-edit modus/two')
  await nav.getByRole('button', { name: /Approvals/ }).click()
  const merge = queue
    .getByRole('region', { name: /^Task: Merge branch modus\/two/ })
    .getByRole('article', { name: /git merge --no-ff --no-edit modus\/two/ })
  await merge.click()
  await merge.getByRole('button', { name: 'Reject…' }).click()
  await merge.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(merge).toHaveCount(0)
  expect(git(modus.workspace, 'rev-parse', 'HEAD')).toBe(head)
  expect(git(modus.workspace, 'log', '--format=%s', '-1')).toBe('base\n')

  // "Open a PR" needs the GitHub CLI: without it the row says so and nothing is proposed.
  await nav.getByRole('button', { name: 'Worktrees' }).click()
  await two.getByRole('button', { name: 'Open a PR' }).click()
  if (onPath('gh')) await expect(two.getByRole('status')).toContainText('gh pr create --head modus/two')
  else await expect(two.getByRole('alert')).toContainText('The GitHub CLI (gh) is not installed')

  // The view with its dialogs open (the new-task form, a discard confirmation, the review with its
  // result): no axe violations in either theme.
  await view.getByRole('button', { name: 'Task in a worktree…' }).click()
  await two.getByRole('button', { name: 'Discard…' }).click()
  await expect(two.getByRole('alertdialog')).toBeVisible()
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await expect(review.locator('.monaco-diff-editor .view-line').first()).toBeVisible()
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))))
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(violations.map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
})
