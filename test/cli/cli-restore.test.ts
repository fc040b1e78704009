import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../support/fake-provider'
import { runCliOnTerminal as onTerminal } from '../support/cli-terminal'
import { runCli } from '../support/run-cli'

/**
 * `modus checkpoints` and `modus restore` on a task's real checkpoints: the restore is a review
 * answered on a real terminal (node-pty), file by file and hunk by hunk, or all at once with --yes.
 */

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
