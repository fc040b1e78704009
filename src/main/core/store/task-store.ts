import { mkdirSync, promises as fs, rmSync } from 'node:fs'
import { join } from 'node:path'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { describeWriteFailure } from '../fs/disk-errors'
import type { TaskSummary } from '../../../shared/contract/task'
import { openTaskLogWriter, readTaskLog, setAsideTornTail, TaskLogWriteError, type TaskLogWriter } from './task-log'
import { loadTaskIndex, type TaskIndex } from './task-index'
import type { TaskMeta } from './task-records'
import { replayRecords, type ReplayedTask } from './task-replay'

/** Task logs (one folder per task under `<dataDir>/tasks/`) and the index over them. */
export interface TaskStore {
  readonly tasksDir: string
  create(meta: TaskMeta): TaskLogWriter
  /** Appends to an existing task's log (resume). */
  reopen(id: string): TaskLogWriter
  /** Before `reopen`: cuts a torn last line off into a sidecar file; says so (null: nothing to cut). */
  setAsideTornTail(id: string): Promise<string | null>
  load(id: string): Promise<(ReplayedTask & { problems: string[] }) | null>
  list(): TaskSummary[]
  summary(id: string): TaskSummary | undefined
  putSummary(summary: TaskSummary): void
  /** Reads again what other processes sharing the data dir did to their tasks. */
  refresh(ids?: readonly string[]): Promise<void>
  /** The pid of another live process that runs this task, or null. */
  runningElsewhere(id: string): number | null
  delete(id: string): Promise<boolean>
  logFile(id: string): string
  problems(): string[]
  flush(): Promise<void>
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,80}$/

export async function createTaskStore(tasksDir: string): Promise<TaskStore> {
  await fs.mkdir(tasksDir, { recursive: true })
  const index: TaskIndex = await loadTaskIndex(tasksDir)
  const logFile = (id: string) => {
    // Ids come back from the renderer: never let one name a path outside the tasks folder.
    if (!SAFE_ID.test(id)) throw new Error(`Invalid task id: ${id.slice(0, 40)}`)
    return join(tasksDir, id, 'log.jsonl')
  }
  return {
    tasksDir,
    create(meta) {
      const folder = join(tasksDir, meta.id)
      const file = logFile(meta.id)
      let writer: TaskLogWriter | null = null
      try {
        mkdirSync(folder, { recursive: true })
        writer = openTaskLogWriter(file)
        writer.append({ r: 'meta', meta })
        writer.checkpoint()
        return writer
      } catch (error) {
        // A task that could not start leaves nothing behind: no empty folder in the history.
        writer?.close()
        rmSync(folder, { recursive: true, force: true })
        const message =
          error instanceof TaskLogWriteError ? error.message : describeWriteFailure(error, file, 'data dir')
        throw new UserFacingError('write_failed', message)
      }
    },
    reopen: (id) => openTaskLogWriter(logFile(id)),
    setAsideTornTail: (id) =>
      setAsideTornTail(logFile(id)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null
        throw error
      }),
    async load(id) {
      const file = logFile(id)
      const read = await readTaskLog(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null
        throw error
      })
      if (!read) return null
      const task = replayRecords(read.records)
      return task ? { ...task, problems: read.problems } : null
    },
    list: () => index.list(),
    summary: (id) => index.get(id),
    putSummary: (summary) => index.put(summary),
    refresh: (ids) => index.refresh(ids?.filter((id) => SAFE_ID.test(id))),
    runningElsewhere: (id) => index.runningElsewhere(id),
    async delete(id) {
      const existed = index.get(id) !== undefined
      await index.remove(id)
      await fs.rm(join(tasksDir, id), { recursive: true, force: true })
      return existed
    },
    logFile,
    problems: () => index.problems(),
    flush: () => index.flush()
  }
}
