import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { toolResultsIn } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from './support/harness'

// The workspace on a full 2 MB tmpfs (skipped, saying why, where mounting is not permitted): an
// auto-approved edit fails to write, and the result's first line says why.

let harness: Harness | undefined
let mountedAt: string | null = null
afterEach(async () => {
  await harness?.close()
  harness = undefined
  if (mountedAt) execFileSync('umount', [mountedAt])
  if (mountedAt) rmSync(mountedAt, { recursive: true, force: true })
  mountedAt = null
})

describe('an edit on a full disk', () => {
  it('the failed write comes first in the result, naming the file and the workspace, not "Block 1 applied"', async (test) => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-full-ws-')))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', workspace], { stdio: 'pipe' })
      mountedAt = workspace
    } catch (error) {
      test.skip(`cannot mount a 2 MB tmpfs here (needs root / CAP_SYS_ADMIN): ${String(error)}`)
    }
    writeFileSync(join(workspace, 'notes.txt'), 'original\n')
    try {
      for (;;) appendFileSync(join(workspace, 'filler.bin'), Buffer.alloc(16 * 1024, 1))
    } catch {
      // Full.
    }
    const diff =
      '<<<<<<< SEARCH\n:start_line:1\n-------\noriginal\n=======\n' + 'changed '.repeat(20_000) + '\n>>>>>>> REPLACE'
    harness = await createHarness({
      modes: [builderMode],
      workspace,
      turns: [
        { toolCalls: [{ name: 'apply_diff', input: { path: 'notes.txt', diff } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
      ]
    })
    const task = await harness.services.tasks.start({ text: 'edit it', mode: 'builder', workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion', 'completion')
    const [result] = toolResultsIn(harness.fake.requests.filter((r) => r.protocol !== 'unknown')[1])
    expect(result.isError).toBe(true)
    expect(result.text.split('\n')[0]).toContain(
      `not written — Could not write ${join(workspace, 'notes.txt')} (in the workspace): the disk is full (ENOSPC).`
    )
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('original\n')
  }, 120_000)
})
