import { collapseCarriageReturns } from './ansi'

/** What a command's card shows while it runs: its last lines, and how many it printed. */
export interface LiveTailReport {
  tail: string
  lines: number
}

export interface LiveTail {
  /** Output as the model reads it (escape sequences already removed), chunk by chunk. */
  push(text: string): void
  /** Reports what is still pending and stops: later output (a command left in the background) is not reported. */
  close(): void
}

export interface LiveTailOptions {
  /** At most one report per interval, so a chatty command does not flood the renderer. */
  intervalMs?: number
  maxLines?: number
  /** Longest line shown; a longer one is cut (a minified bundle printed on one line). */
  maxLineChars?: number
}

const DEFAULTS = { intervalMs: 150, maxLines: 12, maxLineChars: 400 }

/**
 * Keeps the end of a command's output and reports its last lines at most once per interval (the
 * first chunk at once, the rest on a trailing timer). Only a bounded window of text is kept, so the
 * cost per chunk does not grow with the output.
 */
export function createLiveTail(report: (tail: LiveTailReport) => void, options: LiveTailOptions = {}): LiveTail {
  const { intervalMs, maxLines, maxLineChars } = { ...DEFAULTS, ...options }
  const keepChars = maxLines * (maxLineChars + 1) * 2
  let window = ''
  let lines = 0
  let dirty = false
  let closed = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let lastReport = -Infinity

  const flush = (): void => {
    timer = null
    if (!dirty) return
    dirty = false
    lastReport = Date.now()
    const unfinished = window.endsWith('\n') ? 0 : 1
    report({ tail: lastLines(window, maxLines, maxLineChars), lines: lines + unfinished })
  }

  return {
    push(text) {
      if (closed || !text) return
      window = (window + text).slice(-keepChars)
      lines += countNewlines(text)
      dirty = true
      if (timer) return
      const wait = lastReport + intervalMs - Date.now()
      if (wait <= 0) flush()
      else timer = setTimeout(flush, wait)
    },
    close() {
      if (closed) return
      if (timer) clearTimeout(timer)
      flush()
      closed = true
    }
  }
}

function countNewlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

/** The last lines as a terminal shows them (a progress bar's bare-CR redraws collapsed to their last state). */
export function lastLines(text: string, maxLines: number, maxLineChars: number): string {
  const shown = collapseCarriageReturns(text).replace(/\n$/, '').split('\n').slice(-maxLines)
  return shown.map((line) => (line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line)).join('\n')
}
