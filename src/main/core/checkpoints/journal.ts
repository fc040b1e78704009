import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { writeFileAtomic } from '../fs/atomic-write'
import type { SkippedFile } from './shadow-repo'

/**
 * The per-workspace history of checkpoints: markers (a turn starts, a restore starts) and the file
 * changes Modus made after them, as content hashes into the blob store. Append-only JSON lines; a
 * line torn by a killed process is ignored on reading.
 */
export type JournalEntry =
  | { kind: 'marker'; id: string; taskId: string; at: number; label: string }
  | {
      kind: 'change'
      taskId: string
      at: number
      /** What made the change: an applied edit, or the command whose snapshots saw it. */
      source: 'edit' | 'command'
      /** Groups the changes of one command or one write. */
      action: string
      path: string
      before: string | null
      after: string | null
      executable?: boolean
      /** For a command's changes: the command line and the call that ran it (the Changes list names them). */
      command?: string
      callId?: string
    }
  | { kind: 'skipped'; taskId: string; at: number; action: string; files: SkippedFile[] }
  | { kind: 'failure'; taskId: string; at: number; message: string }

export interface Journal {
  read(): Promise<JournalEntry[]>
  append(entries: readonly JournalEntry[]): Promise<void>
  /** Atomically replaces the journal with `entries` (pruning). */
  rewrite(entries: readonly JournalEntry[]): Promise<void>
}

export function createJournal(path: string): Journal {
  let cache: JournalEntry[] | null = null
  let tail: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work)
    tail = next.catch(() => undefined)
    return next
  }

  async function load(): Promise<JournalEntry[]> {
    if (cache) return cache
    const text = await readFile(path, 'utf8').catch(() => '')
    const entries: JournalEntry[] = []
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      try {
        entries.push(JSON.parse(line) as JournalEntry)
      } catch {
        // a line cut short by a crash: everything before it stands
      }
    }
    // A torn last line without its newline would glue onto the next append: end it.
    if (text.length > 0 && !text.endsWith('\n')) await appendFile(path, '\n')
    cache = entries
    return entries
  }

  return {
    read: () => serial(async () => [...(await load())]),
    append: (entries) =>
      serial(async () => {
        if (entries.length === 0) return
        const current = await load()
        await mkdir(dirname(path), { recursive: true })
        // One write per batch; a killed process loses at most this batch's tail (ignored on reading).
        await appendFile(path, entries.map((e) => JSON.stringify(e)).join('\n') + '\n')
        current.push(...entries)
      }),
    rewrite: (entries) =>
      serial(async () => {
        await writeFileAtomic(path, entries.map((e) => JSON.stringify(e) + '\n').join(''))
        cache = [...entries]
      })
  }
}
