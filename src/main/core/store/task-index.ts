import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { TaskSummary } from '../../../shared/contract/task'
import { writeFileAtomic } from '../fs/atomic-write'
import { readTaskLog } from './task-log'
import { currentOwner, ownerIsGone, TaskOwner } from './task-owner'
import { summarizeRecords } from './task-replay'

/** `<task>/summary.json`: one task's line in the history and the process that last ran it. */
const SummaryFile = z.object({ version: z.literal(1), summary: TaskSummary, owner: TaskOwner.optional() })
/** What older versions kept: every task in one `index.json`, rewritten whole by each process. */
const LegacyIndexFile = z.object({ version: z.literal(1), tasks: z.array(TaskSummary) })

export const SUMMARY_FILE = 'summary.json'

/**
 * The list of tasks (title, mode, cost, status). Each task has its own small summary file, written
 * atomically by the process that runs it, so processes sharing a data dir never overwrite each
 * other's tasks; the list is the merge of those files. The logs are the truth: a missing or damaged
 * summary is rebuilt from its log.
 */
export interface TaskIndex {
  list(): TaskSummary[]
  get(id: string): TaskSummary | undefined
  put(summary: TaskSummary): void
  remove(id: string): Promise<void>
  /** Reads again the summaries of tasks this process does not run (another process may have moved them on). */
  refresh(ids?: readonly string[]): Promise<void>
  /** The pid of the live process (other than this one) that runs the task, or null. */
  runningElsewhere(id: string): number | null
  /** Writes pending changes now. */
  flush(): Promise<void>
  /** Problems met while loading (e.g. "summary damaged, rebuilt from its log"). */
  problems(): string[]
}

const SAVE_DELAY_MS = 100
const READ_CONCURRENCY = 16

interface Loaded {
  summary: TaskSummary
  owner?: TaskOwner
}

export async function loadTaskIndex(tasksDir: string): Promise<TaskIndex> {
  const self = currentOwner()
  const problems: string[] = []
  const legacy = await readLegacyIndex(join(tasksDir, 'index.json'))
  const byId = new Map<string, Loaded>()
  const readAll = async (skip: (id: string) => boolean, only?: readonly string[]) => {
    const names = (only ?? (await taskFolders(tasksDir))).filter((name) => !skip(name))
    const loaded = await mapLimited(names, READ_CONCURRENCY, (name) => loadOne(tasksDir, name, legacy, problems))
    for (const entry of loaded) if (entry) byId.set(entry.summary.id, entry)
  }
  await readAll(() => false)

  const mine = new Set<string>()
  const pending = new Set<string>()
  const removed = new Set<string>()
  let timer: NodeJS.Timeout | null = null
  let saving: Promise<void> = Promise.resolve()

  const save = () => {
    if (timer) clearTimeout(timer)
    timer = null
    const ids = [...pending]
    pending.clear()
    saving = saving
      .then(() => Promise.all(ids.map((id) => writeSummary(tasksDir, id, byId.get(id), removed))))
      .then(() => undefined)
    return saving
  }
  const schedule = () => {
    if (timer) return
    timer = setTimeout(() => void save(), SAVE_DELAY_MS)
    timer.unref?.()
  }
  // A task is shown as running only while the process that runs it is alive.
  const shown = ({ summary, owner }: Loaded): TaskSummary =>
    stoppedMidRun(summary) && ownerIsGone(owner, self) ? { ...summary, status: 'interrupted' } : summary

  return {
    list: () => [...byId.values()].map(shown).sort((a, b) => b.updatedAt - a.updatedAt),
    get(id) {
      const entry = byId.get(id)
      return entry && shown(entry)
    },
    put(summary) {
      const first = !mine.has(summary.id)
      mine.add(summary.id)
      removed.delete(summary.id)
      byId.set(summary.id, { summary, owner: self })
      pending.add(summary.id)
      // The first write claims the task for this process at once: another process starting now must see the owner.
      if (first) void save()
      else schedule()
    },
    async remove(id) {
      byId.delete(id)
      pending.delete(id)
      removed.add(id)
      // A write already under way would create the folder again after it is removed: let it finish first.
      await saving
    },
    refresh: (ids) => readAll((id) => mine.has(id), ids),
    runningElsewhere(id) {
      const entry = byId.get(id)
      if (!entry || mine.has(id) || !stoppedMidRun(entry.summary) || ownerIsGone(entry.owner, self)) return null
      return entry.owner?.pid ?? null
    },
    async flush() {
      await save()
    },
    problems: () => [...problems]
  }
}

async function writeSummary(
  tasksDir: string,
  id: string,
  entry: Loaded | undefined,
  removed: Set<string>
): Promise<void> {
  if (!entry || removed.has(id)) return
  // Never bring back a folder that was deleted (by this process or another) while the write waited.
  if (
    !(await fs.stat(join(tasksDir, id, 'log.jsonl')).then(
      () => true,
      () => false
    ))
  )
    return
  const body = JSON.stringify({ version: 1, summary: entry.summary, owner: entry.owner })
  // The history is a view over the logs: a summary that cannot be saved (disk full) is rebuilt from the log later.
  await writeFileAtomic(join(tasksDir, id, SUMMARY_FILE), body).catch(() => undefined)
}

async function loadOne(
  tasksDir: string,
  name: string,
  legacy: Map<string, TaskSummary>,
  problems: string[]
): Promise<Loaded | null> {
  const file = join(tasksDir, name, SUMMARY_FILE)
  const text = await fs.readFile(file, 'utf8').catch(() => null)
  if (text !== null) {
    const parsed = parseJson(text, SummaryFile)
    if (parsed) return { summary: parsed.summary, owner: parsed.owner }
  }
  const fromLegacy = legacy.get(name)
  if (fromLegacy) return { summary: fromLegacy }
  const rebuilt = await rebuildFromLog(tasksDir, name, problems)
  if (rebuilt && text !== null) problems.push(`The summary ${file} was damaged; it was rebuilt from the task's log.`)
  return rebuilt && { summary: rebuilt }
}

async function readLegacyIndex(file: string): Promise<Map<string, TaskSummary>> {
  const text = await fs.readFile(file, 'utf8').catch(() => null)
  const parsed = text === null ? null : parseJson(text, LegacyIndexFile)
  return new Map((parsed?.tasks ?? []).map((task) => [task.id, task]))
}

function parseJson<T>(text: string, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

async function taskFolders(tasksDir: string): Promise<string[]> {
  const entries = await fs.readdir(tasksDir, { withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)
}

async function rebuildFromLog(tasksDir: string, name: string, problems: string[]): Promise<TaskSummary | null> {
  const log = join(tasksDir, name, 'log.jsonl')
  const read = await readTaskLog(log).catch(() => null)
  if (!read) return null
  const summary = summarizeRecords(read.records)
  if (!summary) problems.push(`${log} has no task header; left as it is.`)
  return summary
}

async function mapLimited<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const at = next++
      results[at] = await run(items[at])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

const stoppedMidRun = (entry: TaskSummary): boolean => entry.status === 'running' || entry.status === 'waiting'
