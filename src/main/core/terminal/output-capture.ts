import { createWriteStream, promises as fs, type WriteStream } from 'node:fs'
import { describeWriteFailure } from '../fs/disk-errors'
import { collapseCarriageReturns, createModelTextFilter } from './ansi'
import { createTextRing } from './text-ring'

/**
 * One command's output as the model sees it: the full text (escape sequences stripped) streamed
 * to a file on disk, and in memory only a head and a tail for the preview, so a command printing
 * gigabytes costs a bounded amount of memory.
 */
export interface OutputCaptureOptions {
  filePath: string
  /** Characters kept from the start / the end of the output for the preview. */
  headChars: number
  tailChars: number
  /** Past this many bytes the file stops growing (a server logging for days). */
  maxFileBytes: number
  /** Called with true when the disk falls behind (pause the pty) and false when it caught up. */
  onPressure?: (paused: boolean) => void
}

export interface OutputPreview {
  /** Head + an omission notice + tail, CR-collapsed; the whole output when it fits. */
  text: string
  truncated: boolean
  totalBytes: number
  /** The saved file stops short of the output: where and why (disk full, size limit); absent when it is whole. */
  saveStopped?: SaveStopped
}

/** The saved output holds only its first `atByte` of the `printedBytes` the command printed (so far). */
export interface SaveStopped {
  atByte: number
  printedBytes: number
  reason: string
}

export interface OutputCapture {
  push(raw: string): void
  /** Hands every piece of the model's text to `listener` as it arrives (the whole output, not the preview). */
  observe(listener: (text: string) => void): void
  preview(): OutputPreview
  /** Bytes of text held in memory, for the memory-bound checks. */
  retainedChars(): number
  /** Writes what is buffered and waits until the file holds it (a reader of a running command). */
  sync(): Promise<void>
  /** Flushes and closes the file; the preview stays available. */
  finish(): Promise<OutputPreview>
  readonly filePath: string
}

const BATCH_CHARS = 64 * 1024
const HIGH_WATER = 8 * 1024 * 1024
const FLUSH_DELAY_MS = 200

export function createOutputCapture(options: OutputCaptureOptions): OutputCapture {
  const filter = createModelTextFilter()
  const file: WriteStream = createWriteStream(options.filePath, { flags: 'w', mode: 0o600 })
  let fileError: Error | null = null
  let stopReason: string | null = null
  file.on('error', (error) => {
    fileError = error
    // The command goes on; what it prints from here is only in the preview. Say so, never "saved".
    stopReason ??= describeWriteFailure(error, options.filePath, 'data dir')
    releasePressure()
  })
  let batch: string[] = []
  let batchChars = 0
  let writtenBytes = 0
  let fileFull = false
  let paused = false

  let head = ''
  const tail = createTextRing(options.tailChars)
  let totalBytes = 0
  let finished: Promise<OutputPreview> | null = null
  let flushTimer: NodeJS.Timeout | null = null
  const listeners: Array<(text: string) => void> = []

  const keep = (text: string): void => {
    if (!text) return
    if (head.length < options.headChars) {
      const room = options.headChars - head.length
      head += text.slice(0, room)
      text = text.slice(room)
      if (!text) return
    }
    tail.push(text)
  }

  const flushBatch = (): void => {
    if (flushTimer) {
      clearTimeout(flushTimer)
      flushTimer = null
    }
    if (batchChars === 0) return
    const text = batch.join('')
    batch = []
    batchChars = 0
    const bytes = Buffer.byteLength(text)
    totalBytes += bytes
    if (fileFull || fileError) return
    if (writtenBytes + bytes > options.maxFileBytes) {
      fileFull = true
      stopReason = `the output file limit of ${options.maxFileBytes.toLocaleString('en-US')} bytes was reached`
      file.write(`\n[Modus: output file limit of ${options.maxFileBytes} bytes reached; later output is not saved]\n`)
      return
    }
    writtenBytes += bytes
    if (!file.write(text) && !paused && file.writableLength > HIGH_WATER) {
      paused = true
      options.onPressure?.(true)
      file.once('drain', releasePressure)
    }
  }

  // A failed file never drains: the shell must not stay paused waiting for it.
  function releasePressure(): void {
    if (!paused) return
    paused = false
    options.onPressure?.(false)
  }

  /** What the file really holds (a write cut by a full disk may have landed in part). */
  let savedBytes: number | null = null
  const measureSaved = async (): Promise<void> => {
    if (stopReason === null) return
    savedBytes = await fs.stat(options.filePath).then(
      (info) => info.size,
      () => file.bytesWritten
    )
  }
  const saveStopped = (bytes: number): SaveStopped | undefined =>
    stopReason === null
      ? undefined
      : {
          atByte: fileFull ? writtenBytes : Math.min(savedBytes ?? file.bytesWritten, bytes),
          printedBytes: bytes,
          reason: stopReason
        }

  const append = (text: string): void => {
    if (!text) return
    keep(text)
    for (const listener of listeners) listener(text)
    batch.push(text)
    batchChars += text.length
    if (batchChars >= BATCH_CHARS) flushBatch()
    // A slow trickle (a server's log) still reaches the file soon, for read_command_output.
    else flushTimer ??= setTimeout(flushBatch, FLUSH_DELAY_MS)
  }

  const buildPreview = (): OutputPreview => {
    const pendingBytes = batchChars ? Buffer.byteLength(batch.join('')) : 0
    const bytes = totalBytes + pendingBytes
    const tailText = tail.text()
    const omittedChars = tail.dropped()
    const stopped = saveStopped(bytes)
    const cut = stopped ? { saveStopped: stopped } : {}
    if (omittedChars === 0)
      return { text: collapseCarriageReturns(head + tailText), truncated: false, totalBytes: bytes, ...cut }
    const headPart = cutAtLastNewline(head)
    const tailPart = cutAtFirstNewline(tailText)
    const hidden = omittedChars + (head.length - headPart.length) + (tailText.length - tailPart.length)
    const notice = `\n… [${hidden.toLocaleString('en-US')} characters omitted] …\n`
    return { text: collapseCarriageReturns(headPart + notice + tailPart), truncated: true, totalBytes: bytes, ...cut }
  }

  return {
    filePath: options.filePath,
    push(raw) {
      append(filter.push(raw))
    },
    observe(listener) {
      listeners.push(listener)
    },
    preview: buildPreview,
    retainedChars: () => head.length + tail.size() + batchChars,
    async sync() {
      if (finished) {
        await finished
        return
      }
      flushBatch()
      if (fileError || file.writableEnded) return
      await new Promise<void>((resolve) => file.write('', () => resolve()))
    },
    finish() {
      finished ??= (async () => {
        append(filter.end())
        flushBatch()
        await new Promise<void>((resolve) => (file.destroyed ? resolve() : file.end(() => resolve())))
        releasePressure()
        await measureSaved()
        return buildPreview()
      })()
      return finished
    }
  }
}

/** Keeps whole lines when a cut falls mid-line (unless that would drop most of the text). */
function cutAtLastNewline(text: string): string {
  const at = text.lastIndexOf('\n')
  return at > text.length / 2 ? text.slice(0, at + 1) : text
}

function cutAtFirstNewline(text: string): string {
  const at = text.indexOf('\n')
  return at >= 0 && at < text.length / 2 ? text.slice(at + 1) : text
}
