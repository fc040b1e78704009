import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { WorktreeSetup } from '../../../shared/contract/worktrees'
import { writeFileAtomic } from '../fs/atomic-write'

/**
 * What Modus keeps of one isolated task's worktree, outside the worktree (so a crash or kill -9
 * leaves it findable): where it is, its branch and base, and the task once it started.
 */
export const WorktreeRecord = z.object({
  version: z.literal(1),
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  branch: z.string(),
  baseCommit: z.string(),
  /** The worktree folder. */
  path: z.string(),
  /** Where the task works: the worktree, or the same subfolder the open folder is of its repository. */
  workspace: z.string(),
  repoRoot: z.string(),
  /** The open folder the task was started from (its trust is the worktree's). */
  sourceWorkspace: z.string(),
  createdAt: z.number(),
  text: z.string(),
  mode: z.string(),
  taskId: z.string().optional(),
  parentTaskId: z.string().optional(),
  /** The parent's new_task call that asked for it (an isolated subtask). */
  parentCallId: z.string().optional(),
  portBase: z.number(),
  portCount: z.number(),
  carriedChanges: z.boolean(),
  copiedFiles: z.array(z.string()),
  setupCommand: z.string().optional(),
  setup: WorktreeSetup.optional(),
  /** The folder was pruned (its changes committed on the branch first); the branch stays for review. */
  pruned: z.boolean().default(false),
  /** Why its task could not start (it stays listed, nothing ran). */
  startError: z.string().optional()
})
export type WorktreeRecord = z.infer<typeof WorktreeRecord>

export interface WorktreeRecords {
  list(): WorktreeRecord[]
  get(id: string): WorktreeRecord | undefined
  byTask(taskId: string): WorktreeRecord | undefined
  put(record: WorktreeRecord): Promise<void>
  remove(id: string): Promise<void>
}

/**
 * One JSON file per worktree in `<dir>`, written atomically; all loaded once at start. `write`:
 * how a record's file is written (tests hold one back).
 */
export async function loadWorktreeRecords(
  dir: string,
  write: (path: string, text: string) => Promise<void> = writeFileAtomic
): Promise<WorktreeRecords> {
  await fs.mkdir(dir, { recursive: true })
  const byId = new Map<string, WorktreeRecord>()
  for (const name of await fs.readdir(dir)) {
    if (!name.endsWith('.json')) continue
    const text = await fs.readFile(join(dir, name), 'utf8').catch(() => null)
    const parsed = text === null ? null : WorktreeRecord.safeParse(safeJson(text))
    // A damaged record leaves its worktree an orphan: listed, never deleted unasked.
    if (parsed?.success) byId.set(parsed.data.id, parsed.data)
  }
  const file = (id: string) => join(dir, `${id}.json`)
  /**
   * The last change of each record still being written. A record's changes reach its file one after
   * another, in call order: a slower earlier write (queued) never lands over a later one (started),
   * which after a kill -9 would start the task a second time.
   */
  const pending = new Map<string, Promise<void>>()
  const inTurn = (id: string, change: () => Promise<void>): Promise<void> => {
    const done = (pending.get(id) ?? Promise.resolve()).catch(() => undefined).then(change)
    pending.set(id, done)
    const forget = () => {
      if (pending.get(id) === done) pending.delete(id)
    }
    done.then(forget, forget)
    return done
  }
  return {
    list: () => [...byId.values()].sort((a, b) => b.createdAt - a.createdAt),
    get: (id) => byId.get(id),
    byTask: (taskId) => [...byId.values()].find((record) => record.taskId === taskId),
    async put(record) {
      byId.set(record.id, record)
      const text = JSON.stringify(record)
      await inTurn(record.id, () => write(file(record.id), text))
    },
    async remove(id) {
      byId.delete(id)
      await inTurn(id, () => fs.rm(file(id), { force: true }))
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
