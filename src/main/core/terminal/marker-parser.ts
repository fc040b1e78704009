/**
 * Finds Modus's shell markers in the pty stream. A marker is an OSC sequence
 * `ESC ] 6973 ; <kind> ; <nonce> [; <exit> ; <cwd>] BEL` printed by the shell itself (never by
 * recognising the prompt). The echo of the typed invocation cannot match: it holds no ESC.
 * Per-chunk work on the hot path is one `indexOf` and a short tail check.
 */
export const MARKER_PREFIX = '\x1b]6973;'
const BEL = '\x07'
/** A marker longer than this (a cwd of 4 kB plus fields) is not ours: pass it on as text. */
const MAX_MARKER = 8192

export type MarkerKind = 'R' | 'S' | 'E'

export interface Marker {
  kind: MarkerKind
  nonce: string
  exitCode: number | null
  cwd: string | null
  /** The marker's exact text, to pass it through when its nonce is not the expected one. */
  raw: string
}

export interface MarkerSink {
  text(chunk: string): void
  marker(marker: Marker): void
}

export interface MarkerParser {
  push(chunk: string): void
  /** Releases held-back text (the stream ended). */
  flush(): void
}

export function createMarkerParser(sink: MarkerSink): MarkerParser {
  let held = ''

  const emitText = (text: string): void => {
    if (text) sink.text(text)
  }

  const push = (chunk: string): void => {
    let text = held ? held + chunk : chunk
    held = ''
    for (;;) {
      const start = text.indexOf(MARKER_PREFIX)
      if (start < 0) break
      const end = text.indexOf(BEL, start + MARKER_PREFIX.length)
      if (end < 0) {
        if (text.length - start > MAX_MARKER) {
          // Not one of ours: release up to and including the prefix and keep scanning.
          emitText(text.slice(0, start + MARKER_PREFIX.length))
          text = text.slice(start + MARKER_PREFIX.length)
          continue
        }
        emitText(text.slice(0, start))
        held = text.slice(start)
        return
      }
      emitText(text.slice(0, start))
      const raw = text.slice(start, end + 1)
      const marker = parseMarker(raw)
      if (marker) sink.marker(marker)
      else emitText(raw)
      text = text.slice(end + 1)
    }
    const keep = partialPrefixLength(text)
    if (keep > 0) {
      held = text.slice(text.length - keep)
      text = text.slice(0, text.length - keep)
    }
    emitText(text)
  }

  return {
    push,
    flush() {
      const rest = held
      held = ''
      emitText(rest)
    }
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of the marker prefix. */
function partialPrefixLength(text: string): number {
  // Only the last few characters matter; searching from there avoids scanning the chunk.
  let esc = text.indexOf('\x1b', Math.max(0, text.length - MARKER_PREFIX.length + 1))
  while (esc >= 0) {
    const tail = text.slice(esc)
    if (MARKER_PREFIX.startsWith(tail)) return tail.length
    esc = text.indexOf('\x1b', esc + 1)
  }
  return 0
}

function parseMarker(raw: string): Marker | null {
  const body = raw.slice(MARKER_PREFIX.length, -1)
  const kind = body[0]
  if ((kind !== 'R' && kind !== 'S' && kind !== 'E') || body[1] !== ';') return null
  const rest = body.slice(2)
  if (kind !== 'E') return /^[0-9a-f]{8,64}$/.test(rest) ? { kind, nonce: rest, exitCode: null, cwd: null, raw } : null
  const first = rest.indexOf(';')
  const second = first < 0 ? -1 : rest.indexOf(';', first + 1)
  if (second < 0) return null
  const nonce = rest.slice(0, first)
  const code = Number(rest.slice(first + 1, second))
  if (!/^[0-9a-f]{8,64}$/.test(nonce) || !Number.isInteger(code)) return null
  return { kind, nonce, exitCode: code, cwd: rest.slice(second + 1), raw }
}
