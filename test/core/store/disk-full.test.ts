import { execFileSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTaskLog } from '../../../src/main/core/store/task-log'
import { createTaskStore } from '../../../src/main/core/store/task-store'
import { createWorkspace } from '../../../src/main/core/workspace/create-workspace'

// The data dir and a workspace each on their own 2 MB tmpfs, filled up. Mounting needs root
// (CAP_SYS_ADMIN): where it is refused, the tests are skipped and say why.

const base = mkdtempSync(join(tmpdir(), 'modus-disk-full-'))
const tasksDir = join(base, 'tasks')
const workspaceDir = join(base, 'workspace')
const mounted: string[] = []
let skipReason: string | null = null

function mountTmpfs(dir: string): void {
  mkdirSync(dir, { recursive: true })
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'pipe' })
  mounted.push(dir)
}

/** Appends to a filler file until the disk refuses; returns the filler so it can be removed. */
function fill(dir: string): string {
  const filler = join(dir, 'filler.bin')
  const chunk = Buffer.alloc(16 * 1024, 1)
  try {
    for (;;) appendFileSync(filler, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  }
  return filler
}

beforeAll(() => {
  try {
    mountTmpfs(tasksDir)
    mountTmpfs(workspaceDir)
  } catch (error) {
    skipReason = `cannot mount a 2 MB tmpfs here (needs root / CAP_SYS_ADMIN): ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`
  }
})
afterAll(() => {
  for (const dir of mounted.reverse()) execFileSync('umount', [dir])
  rmSync(base, { recursive: true, force: true })
})

const meta = (id: string) => ({ id, title: 'Fill the disk', mode: 'code', workspace: workspaceDir, createdAt: 1 })

describe('a full disk', () => {
  it('a task that cannot start names the log it could not write and leaves no folder behind', async (test) => {
    if (skipReason) test.skip(skipReason)
    const store = await createTaskStore(tasksDir)
    const filler = fill(tasksDir)
    try {
      const file = join(tasksDir, 't1', 'log.jsonl')
      expect(() => store.create(meta('t1'))).toThrow(
        `Could not write ${file} (in Modus's app data dir): the disk is full (ENOSPC).`
      )
      expect(existsSync(join(tasksDir, 't1'))).toBe(false)
    } finally {
      rmSync(filler)
    }
  })

  it('a log the disk stops taking mid-task ends on a whole record and the error names it', async (test) => {
    if (skipReason) test.skip(skipReason)
    const store = await createTaskStore(tasksDir)
    const writer = store.create(meta('t2'))
    writer.append({ r: 'event', event: { type: 'user-message', at: 2, text: 'before the disk filled' } })
    const filler = fill(tasksDir)
    try {
      const file = join(tasksDir, 't2', 'log.jsonl')
      const big = { r: 'event' as const, event: { type: 'user-message' as const, at: 3, text: 'y'.repeat(200_000) } }
      expect(() => writer.append(big)).toThrow(
        `Could not write ${file} (in Modus's app data dir): the disk is full (ENOSPC). Free space on the disk that holds ${join(tasksDir, 't2')}`
      )
      writer.close()
      const text = readFileSync(file, 'utf8')
      expect(text.endsWith('\n')).toBe(true)
      const read = await readTaskLog(file)
      expect(read.problems).toEqual([])
      expect(read.records.map((r) => r.r)).toEqual(['meta', 'event'])
    } finally {
      rmSync(filler)
    }
  })

  it('an edit on a full workspace names the file and says it is the workspace; the file is unchanged', async (test) => {
    if (skipReason) test.skip(skipReason)
    writeFileSync(join(workspaceDir, 'notes.txt'), 'original\n')
    const workspace = await createWorkspace({ root: workspaceDir })
    const filler = fill(workspaceDir)
    try {
      await expect(workspace.writeText('notes.txt', 'z'.repeat(100_000))).rejects.toThrow(
        `Could not write ${join(workspaceDir, 'notes.txt')} (in the workspace): the disk is full (ENOSPC).`
      )
      expect(readFileSync(join(workspaceDir, 'notes.txt'), 'utf8')).toBe('original\n')
    } finally {
      rmSync(filler)
    }
  })
})
