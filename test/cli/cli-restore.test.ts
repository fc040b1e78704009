import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as pty from 'node-pty'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

/**
 * `modus checkpoints` and `modus restore` on a task's real checkpoints: the restore is a review
 * answered on a real terminal (node-pty), file by file and hunk by hunk, or all at once with --yes.
 */
const root = resolve(__dirname, '../..')
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs')
const entry = join(root, 'src/cli/main.ts')

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

const ORIGINAL = Array.from({ length: 14 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
const EDITED = ORIGINAL.replace('line 1\n', 'LINE ONE\n').replace('line 14\n', 'LINE FOURTEEN\n')

/** A task that edited a.txt in two places (approved on stdin), and the checkpoint taken before it. */
async function editedWorkspace() {
  fake = await startFakeProvider({
    name: 'cli restore',
    turns: [
      { toolCalls: [{ name: 'write_to_file', input: { path: 'a.txt', content: EDITED } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
    ]
  })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-restore-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-restore-ws-')))
  const home = mkdtempSync(join(tmpdir(), 'modus-restore-home-'))
  writeFileSync(join(workspace, 'a.txt'), ORIGINAL)
  const env = { MODUS_DATA_DIR: dataDir, HOME: home }
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  const run = await runCli(['run', '--workspace', workspace, ...provider, 'edit a.txt'], { env, stdin: 'y\n' })
  expect(run.code).toBe(0)
  expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe(EDITED)
  const listed = await runCli(['checkpoints', '--workspace', workspace], { env })
  expect(listed.code).toBe(0)
  expect(listed.stdout).toContain('edit a.txt')
  expect(listed.stdout).toContain('1 file changed since')
  const json = await runCli(['checkpoints', '--workspace', workspace, '--json'], { env })
  const checkpoint = JSON.parse(json.stdout.trim().split('\n')[0]) as { id: string; label: string }
  expect(checkpoint.label).toBe('edit a.txt')
  return { workspace, env, checkpoint: checkpoint.id }
}

/** Runs the CLI on a pty and answers each prompt as it appears. */
function onTerminal(
  args: string[],
  env: Record<string, string>,
  answers: Array<[prompt: string, answer: string]>
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const term = pty.spawn(process.execPath, [jiti, entry, ...args], {
      cols: 200,
      rows: 50,
      cwd: root,
      env: { ...process.env, ...env }
    })
    let output = ''
    let next = 0
    let answeredAt = 0
    term.onData((data) => {
      output += data
      const pending = answers[next]
      if (pending && output.indexOf(pending[0], answeredAt) !== -1) {
        answeredAt = output.lastIndexOf(pending[0]) + pending[0].length
        next++
        term.write(`${pending[1]}\r`)
      }
    })
    term.onExit(({ exitCode }) => done({ code: exitCode, output }))
  })
}

describe('modus checkpoints / modus restore', { timeout: 240_000 }, () => {
  it('restore is reviewed on the terminal hunk by hunk: only the accepted hunk is put back', async () => {
    const { workspace, env, checkpoint } = await editedWorkspace()
    const restored = await onTerminal(['restore', checkpoint.slice(0, 10), '--workspace', workspace], env, [
      ['[h]unk by hunk', 'h'],
      ['Restore this hunk?', 'y'],
      ['Restore this hunk?', 'n']
    ])
    expect(restored.output).toContain('-LINE ONE')
    expect(restored.output).toContain('+line 1')
    expect(restored.output).toContain('a.txt: partially-applied')
    expect(restored.code).toBe(0)
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe(ORIGINAL.replace('line 14\n', 'LINE FOURTEEN\n'))
  })

  it('--yes restores without asking; a rejected review writes nothing', async () => {
    const { workspace, env, checkpoint } = await editedWorkspace()
    const declined = await onTerminal(['restore', checkpoint, '--workspace', workspace], env, [['[h]unk by hunk', 'n']])
    expect(declined.code).toBe(3)
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe(EDITED)
    const yes = await runCli(['restore', checkpoint, '--workspace', workspace, '--yes'], { env })
    expect(yes.stdout).toContain('a.txt: applied')
    expect(yes.code).toBe(0)
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe(ORIGINAL)
  })
})
