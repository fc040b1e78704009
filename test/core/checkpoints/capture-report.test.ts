import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCheckpointService } from '../../../src/main/core/checkpoints'
import { autopilotMode, createHarness, type Harness } from '../agent/support/harness'

/**
 * What a command's checkpoint could not hold is said in the command's result, in the chat and to
 * the model: files over the size limit it created or changed (not every large file of the tree),
 * and a snapshot that failed. Never silently missing.
 */
let harness: Harness | undefined
const dirs: string[] = []
afterEach(async () => {
  await harness?.close()
  harness = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const runScript = [
  { toolCalls: [{ name: 'execute_command', input: { command: 'sh gen.sh' } }] },
  { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
]

/** The execute_command result as the model received it in its next request. */
function resultSentToModel(h: Harness): string {
  const last = h.fake.requests.filter((r) => r.path.endsWith('/messages')).at(-1)!.body
  const blocks = last.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
  const result = blocks.find((b: { type: string }) => b.type === 'tool_result')
  return (Array.isArray(result.content) ? result.content : [{ text: result.content }])
    .map((b: { text?: string }) => b.text ?? '')
    .join('')
}

async function runTask(h: Harness): Promise<string> {
  const task = await h.services.tasks.start({ text: 'generate', mode: 'autopilot', workspace: h.workspace })
  await h.waitForEvent((e, id) => id === task.id && e.type === 'completion')
  return task.id
}

describe("a command's checkpoint, reported in its result", () => {
  it('lists the large files the command created or changed, not the large files it left alone', async () => {
    harness = await createHarness({
      modes: [autopilotMode],
      turns: runScript,
      files: {
        'gen.sh':
          'head -c 3000 /dev/zero > made.bin\nhead -c 4000 /dev/zero > grown.bin\necho small > small.txt\necho ran\n',
        'untouched.bin': 'u'.repeat(5000),
        'grown.bin': 'g'.repeat(2000)
      }
    })
    await harness.settings.update((s) => ({ ...s, checkpoints: { ...s.checkpoints, maxFileMb: 1 / 1024 } }))
    const taskId = await runTask(harness)
    const sent = resultSentToModel(harness)
    expect(sent).toContain('ran')
    expect(sent).toContain(
      'Checkpoint: not captured, over the size limit, so restoring cannot bring back their content from before this command: grown.bin (4 KB), made.bin (3 KB).'
    )
    expect(sent).not.toContain('untouched.bin')
    const [checkpoint] = await harness.services.handlers['checkpoints:list']({ taskId })
    expect(checkpoint.skipped.map((f) => f.path)).toEqual(['grown.bin', 'made.bin'])
  }, 60_000)

  it('says so when the snapshot could not be taken (no git), and the command still runs', async () => {
    harness = await createHarness({
      modes: [autopilotMode],
      turns: runScript,
      files: { 'gen.sh': 'echo made > made.txt\necho ran\n' },
      checkpoints: createCheckpointService({
        dir: join(dirs[dirs.push(mkdtempSync(join(tmpdir(), 'modus-cp-nogit-'))) - 1], 'checkpoints'),
        gitPath: '/nonexistent/git'
      })
    })
    await runTask(harness)
    const sent = resultSentToModel(harness)
    expect(sent).toContain('ran')
    expect(sent).toContain(
      'Checkpoint: git is not installed (or not on PATH): changes made by commands are not captured.'
    )
  }, 60_000)
})
