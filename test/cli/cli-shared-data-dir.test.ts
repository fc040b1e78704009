import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

// Several `modus` processes on one data dir, as a user running tasks side by side (or the app and
// the CLI) has: each one finishing its own task must never relabel another's.

const fakes: FakeProvider[] = []
afterEach(async () => {
  for (const fake of fakes.splice(0)) {
    expect(fake.failures).toEqual([])
    await fake.close()
  }
})

/** A provider whose one answer waits until `release()`: the task stays running until the test lets it finish. */
async function heldProvider(name: string) {
  let release!: () => void
  const gate = new Promise<void>((done) => (release = done))
  const fake = await startFakeProvider({
    name,
    turns: [
      async () => {
        await gate
        return { toolCalls: [{ name: 'attempt_completion', input: { result: `${name} done.` } }] }
      }
    ]
  })
  fakes.push(fake)
  const asked = async () => {
    while (fake.requests.length === 0) await new Promise((done) => setTimeout(done, 50))
  }
  return {
    fake,
    release,
    asked,
    args: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  }
}

const statuses = async (workspace: string, env: Record<string, string>) => {
  const listed = await runCli(['tasks', '--json', '--workspace', workspace], { env })
  expect(listed.code).toBe(0)
  const tasks = listed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { title: string; status: string })
  return Object.fromEntries(tasks.map((task) => [task.title, task.status]))
}

describe('tasks of several processes on one data dir', { timeout: 240_000 }, () => {
  it('a task another live process runs is listed as running, and both finished tasks stay completed', async () => {
    const env = { MODUS_DATA_DIR: mkdtempSync(join(tmpdir(), 'modus-shared-data-')) }
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-shared-ws-')))
    const a = await heldProvider('Task A')
    const b = await heldProvider('Task B')

    const runA = runCli(['run', '--workspace', workspace, ...a.args, 'Task A'], { env })
    await a.asked()
    // B starts while A runs: it must not take A for a task whose process went away.
    const runB = runCli(['run', '--workspace', workspace, ...b.args, 'Task B'], { env })
    await b.asked()
    expect(await statuses(workspace, env)).toEqual({ 'Task A': 'running', 'Task B': 'running' })

    a.release()
    expect((await runA).code).toBe(0)
    b.release()
    expect((await runB).code).toBe(0)
    expect(await statuses(workspace, env)).toEqual({ 'Task A': 'completed', 'Task B': 'completed' })
  })
})
