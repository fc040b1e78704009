import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { TaskSummary } from '../../../shared/contract/task'
import { writeFileAtomic } from '../fs/atomic-write'
import { readTaskLog } from './task-log'
import { summarizeRecords } from './task-replay'

const IndexFile = z.object({ version: z.literal(1), tasks: z.array(TaskSummary) })

/**
 * The list of tasks (title, mode, cost, status) in one small file, so the history opens without
 * reading every log. The logs are the truth: a missing or damaged index is rebuilt from them.
 */
export interface TaskIndex {
  list(): TaskSummary[]
  get(id: string): TaskSummary | undefined
  put(summary: TaskSummary): void
  remove(id: string): void
  /** Writes pending changes now. */
  flush(): Promise<void>
  /** Problems met while loading (e.g. "index damaged, rebuilt from N logs"). */
  problems(): string[]
}

const SAVE_DELAY_MS = 100

export async function loadTaskIndex(tasksDir: string): Promise<TaskIndex> {
  const file = join(tasksDir, 'index.json')
  const problems: string[] = []
  let entries = await readIndex(file)
  if (!entries) {
    const existed = await fs.stat(file).then(() => true, () => false)
    entries = await rebuildFromLogs(tasksDir, problems)
    if (existed) problems.unshift(`The task index ${file} was damaged; it was rebuilt from ${entries.length} task logs.`)
  } else {
    // The index is saved a moment after changes: a task created just before a crash has a log but no entry yet.
    entries = await reconcileWithLogs(tasksDir, entries, problems)
  }
  // Loaded at start-up: a task the index still calls running belonged to a process that is gone.
  const byId = new Map(entries.map((entry) => [entry.id, stoppedMidRun(entry) ? { ...entry, status: 'interrupted' as const } : entry]))
  let timer: NodeJS.Timeout | null = null
  let saving: Promise<void> = Promise.resolve()

  const save = () => {
    timer = null
    const tasks = [...byId.values()]
    saving = saving.then(() => writeFileAtomic(file, JSON.stringify({ version: 1, tasks }))).catch(() => undefined)
    return saving
  }
  const schedule = () => {
    if (timer) return
    timer = setTimeout(save, SAVE_DELAY_MS)
    timer.unref?.()
  }
  if (problems.length > 0 || entries.length > 0) schedule()

  return {
    list: () => [...byId.values()].sort((a, b) => b.updatedAt - a.updatedAt),
    get: (id) => byId.get(id),
    put(summary) {
      byId.set(summary.id, summary)
      schedule()
    },
    remove(id) {
      byId.delete(id)
      schedule()
    },
    async flush() {
      if (timer) clearTimeout(timer)
      await save()
    },
    problems: () => [...problems]
  }
}

async function readIndex(file: string): Promise<TaskSummary[] | null> {
  try {
    const parsed = IndexFile.safeParse(JSON.parse(await fs.readFile(file, 'utf8')))
    return parsed.success ? parsed.data.tasks : null
  } catch {
    return null
  }
}

async function reconcileWithLogs(tasksDir: string, entries: TaskSummary[], problems: string[]): Promise<TaskSummary[]> {
  const folders = new Set(await taskFolders(tasksDir))
  const known = new Set(entries.map((entry) => entry.id))
  const missing = [...folders].filter((name) => !known.has(name))
  const kept = entries.filter((entry) => folders.has(entry.id))
  return missing.length > 0 ? [...kept, ...(await rebuildFromLogs(tasksDir, problems, missing))] : kept
}

async function taskFolders(tasksDir: string): Promise<string[]> {
  const entries = await fs.readdir(tasksDir, { withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
}

async function rebuildFromLogs(tasksDir: string, problems: string[], only?: string[]): Promise<TaskSummary[]> {
  const names = only ?? (await taskFolders(tasksDir))
  const summaries: TaskSummary[] = []
  for (const name of names) {
    const log = join(tasksDir, name, 'log.jsonl')
    const read = await readTaskLog(log).catch(() => null)
    if (!read) continue
    const summary = summarizeRecords(read.records)
    if (summary) summaries.push(summary)
    else problems.push(`${log} has no task header; left as it is.`)
  }
  return summaries
}

const stoppedMidRun = (entry: TaskSummary): boolean => entry.status === 'running' || entry.status === 'waiting'
