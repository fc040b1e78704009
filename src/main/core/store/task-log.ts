import { closeSync, fsync, fsyncSync, ftruncateSync, openSync, promises as fs, writeSync } from 'node:fs'
import { basename } from 'node:path'
import { describeWriteFailure } from '../fs/disk-errors'
import { TaskRecord } from './task-records'

/**
 * Appends records to one task's JSONL log as they happen. Each record is written to the file at
 * once (a killed process loses nothing the OS already has), except text deltas, which are merged
 * for a few milliseconds so a long answer is not a thousand tiny writes. `checkpoint()` also asks
 * the disk to persist (against power loss) where a line matters — tool results, approvals — off
 * the event loop and coalesced, so a slow disk never stalls the agent; `close()` syncs for good.
 */
export interface TaskLogWriter {
  append(record: TaskRecord): void
  checkpoint(): void
  close(): void
  /** Bytes written so far (for the benchmark and the index). */
  size(): number
}

const DELTA_FLUSH_MS = 40

/** The log could not be written (disk full, quota): the message names the file and what to do. */
export class TaskLogWriteError extends Error {
  override name = 'TaskLogWriteError'
}

export function openTaskLogWriter(file: string): TaskLogWriter {
  const fd = openSync(file, 'a', 0o600)
  let bytes = 0
  let pendingDelta: TaskRecord | null = null
  let timer: NodeJS.Timeout | null = null
  let closed = false
  let syncing = false
  let syncAgain = false
  let closeAfterSync = false

  const finishClose = () => {
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
  const syncInBackground = () => {
    if (syncing) {
      syncAgain = true
      return
    }
    syncing = true
    fsync(fd, () => {
      syncing = false
      if (closeAfterSync) return finishClose()
      if (syncAgain) {
        syncAgain = false
        syncInBackground()
      }
    })
  }

  let failure: TaskLogWriteError | null = null
  const writeLine = (record: TaskRecord) => {
    if (failure) throw failure
    const line = Buffer.from(JSON.stringify(record) + '\n')
    let written = 0
    try {
      // A nearly full disk may take part of a line: write the rest, or fail as one.
      while (written < line.length) written += writeSync(fd, line, written, line.length - written)
    } catch (error) {
      failure = new TaskLogWriteError(describeWriteFailure(error, file, 'data dir'))
      // Cut the part that landed: the log ends on a whole record, never on a line torn by the disk.
      try {
        ftruncateSync(fd, bytes)
      } catch {
        // Could not even truncate; the reader sets the torn line aside and names the disk as a possible cause.
      }
      throw failure
    }
    bytes += written
  }
  const flushDelta = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (pendingDelta) writeLine(pendingDelta)
    pendingDelta = null
  }

  return {
    append(record) {
      if (closed) throw new Error('task log is closed')
      const delta = asDelta(record)
      if (delta) {
        const pending = pendingDelta ? asDelta(pendingDelta) : null
        if (pending && pending.type === delta.type && pending.messageId === delta.messageId) {
          pending.text += delta.text
          return
        }
        flushDelta()
        pendingDelta = { r: 'event', event: { ...delta } }
        timer = setTimeout(() => {
          try {
            flushDelta()
          } catch {
            // Held in `failure`: the next append throws it where the task can report it.
          }
        }, DELTA_FLUSH_MS)
        timer.unref?.()
        return
      }
      flushDelta()
      writeLine(record)
    },
    checkpoint() {
      if (closed || failure) return
      flushDelta()
      syncInBackground()
    },
    close() {
      if (closed) return
      // A log that failed to write already said so; closing must still release it.
      if (!failure) flushDelta()
      closed = true
      // An fsync still running on this descriptor must finish before it is closed.
      if (syncing) closeAfterSync = true
      else finishClose()
    },
    size: () => bytes
  }
}

type DeltaEvent = { type: 'text-delta' | 'reasoning-delta'; messageId: string; text: string }
const asDelta = (record: TaskRecord): DeltaEvent | null =>
  record.r === 'event' && (record.event.type === 'text-delta' || record.event.type === 'reasoning-delta')
    ? record.event
    : null

/** Reads a log; a torn last line (the process died mid-write) or a damaged line is skipped and reported. */
export async function readTaskLog(file: string): Promise<{ records: TaskRecord[]; problems: string[] }> {
  const text = await fs.readFile(file, 'utf8')
  const records: TaskRecord[] = []
  const problems: string[] = []
  const lines = text.split('\n')
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    const isLast = index === lines.length - 1
    let raw: unknown
    try {
      raw = JSON.parse(line)
    } catch {
      problems.push(
        isLast
          ? `line ${index + 1}: incomplete last line (Modus stopped, or its disk filled up, while writing it); ignored`
          : `line ${index + 1}: not JSON; skipped`
      )
      return
    }
    const parsed = TaskRecord.safeParse(raw)
    if (parsed.success) records.push(parsed.data)
    else problems.push(`line ${index + 1}: ${parsed.error.issues[0]?.message ?? 'invalid record'}; skipped`)
  })
  return { records, problems }
}

/**
 * Before appending to a log again: a last line the process died while writing would have the next
 * record glued to it (and both lost). It is cut off and kept aside in a sidecar file beside the log.
 * Returns what was done, for the user, or null when the log ended cleanly.
 */
export async function setAsideTornTail(file: string, now: number = Date.now()): Promise<string | null> {
  const bytes = await fs.readFile(file)
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return null
  const keep = bytes.lastIndexOf(0x0a) + 1
  const tail = bytes.subarray(keep)
  if (isCompleteRecord(tail)) {
    // Only the newline was missing: the record is whole and stays.
    await fs.appendFile(file, '\n')
    return null
  }
  const sidecar = `${file}.torn-${now}`
  const handle = await fs.open(sidecar, 'wx', 0o600)
  try {
    await handle.writeFile(tail)
    await handle.sync()
  } finally {
    await handle.close()
  }
  // The torn bytes are safe on disk before the log loses them.
  await fs.truncate(file, keep)
  return `The last line of this task's log was incomplete (Modus stopped, or its disk filled up, while writing it). Its ${tail.length} bytes were set aside in ${basename(sidecar)} beside the log; everything before it is kept.`
}

const isCompleteRecord = (line: Buffer): boolean => {
  try {
    return TaskRecord.safeParse(JSON.parse(line.toString('utf8'))).success
  } catch {
    return false
  }
}
