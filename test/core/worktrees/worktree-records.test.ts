import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../../../src/main/core/fs/atomic-write'
import { loadWorktreeRecords, type WorktreeRecord } from '../../../src/main/core/worktrees/worktree-records'

const queued: WorktreeRecord = {
  version: 1,
  id: 'wt-1',
  name: 'task',
  slug: 'task',
  branch: 'modus/task',
  baseCommit: 'abc',
  path: '/w/task',
  workspace: '/w/task',
  repoRoot: '/repo',
  sourceWorkspace: '/repo',
  createdAt: 1,
  text: 'do it',
  mode: 'code',
  portBase: 41_000,
  portCount: 10,
  carriedChanges: false,
  copiedFiles: [],
  pruned: false
}
const started: WorktreeRecord = { ...queued, taskId: 'task-1' }

/**
 * Writes record files for real, but the first write waits until the test lets it go and then
 * until any write begun meanwhile has landed: were they not in turn, the first would land last.
 */
function firstWriteHeldBack() {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  let calls = 0
  let meanwhile: Promise<void> | undefined
  const write = async (path: string, text: string): Promise<void> => {
    if (++calls > 1) return (meanwhile = writeFileAtomic(path, text))
    await released
    await meanwhile
    return writeFileAtomic(path, text)
  }
  return { write, release }
}

describe('worktree records on disk', () => {
  it('two changes of one record land in the order they were made: after a restart a started task is not queued again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-records-'))
    const held = firstWriteHeldBack()
    const records = await loadWorktreeRecords(dir, held.write)

    const writes = [records.put(queued), records.put(started)]
    held.release()
    await Promise.all(writes)

    expect((await loadWorktreeRecords(dir)).get('wt-1')?.taskId).toBe('task-1')
  })

  it('a record removed while its last change is still being written stays removed after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-records-'))
    const held = firstWriteHeldBack()
    const records = await loadWorktreeRecords(dir, held.write)

    const writes = [records.put(queued), records.remove('wt-1')]
    held.release()
    await Promise.all(writes)

    expect((await loadWorktreeRecords(dir)).list()).toEqual([])
  })
})
