import type { Column } from './arrow-columns'

/** Character classes of a name's characters, by char code below 128 (0: not in a name). */
const LOWER = 1
const UPPER = 2
const DIGIT = 3
const JOINER = 4 // `_` and `$`: in a name, in no part of it
const classes = new Uint8Array(128)
for (let c = 97; c <= 122; c++) classes[c] = LOWER
for (let c = 65; c <= 90; c++) classes[c] = UPPER
for (let c = 48; c <= 57; c++) classes[c] = DIGIT
classes[95] = JOINER
classes[36] = JOINER
const MAX_TOKEN = 48
const SPACE = 32

/**
 * The full-text column of the chunks: each text's terms as tokenize.ts makes them, space-separated,
 * written as bytes straight into one buffer. Every term is ASCII (names are `[A-Za-z0-9_$]`), so
 * no term string, joined string or UTF-8 encoding is made per chunk (they were a third of the
 * indexing thread's own time in a build).
 */
export function termsColumn(texts: readonly string[]): Extract<Column, { kind: 'utf8Bytes' }> {
  const offsets = new Int32Array(texts.length + 1)
  let bytes = new Uint8Array(64 * 1024)
  let size = 0
  /** Room for `more` bytes. */
  const reserve = (more: number) => {
    if (size + more <= bytes.length) return
    const grown = new Uint8Array(Math.max(bytes.length * 2, size + more))
    grown.set(bytes.subarray(0, size))
    bytes = grown
  }
  // A word's parts (start, end pairs), as PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g finds them.
  const parts = new Int32Array(MAX_TOKEN * 2)
  const lower = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code)
  const classAt = (text: string, at: number) => {
    const code = text.charCodeAt(at)
    return code < 128 ? classes[code] : 0
  }
  let first = true
  const writeTerm = (text: string, start: number, end: number) => {
    reserve(end - start + 1)
    if (!first) bytes[size++] = SPACE
    first = false
    for (let at = start; at < end; at++) bytes[size++] = lower(text.charCodeAt(at))
  }
  /** Parts of text[start, end), each a pair in `parts`; returns how many. */
  const split = (text: string, start: number, end: number): number => {
    let count = 0
    let at = start
    while (at < end) {
      const kind = classAt(text, at)
      let stop = at + 1
      if (kind === UPPER) {
        while (stop < end && classAt(text, stop) === UPPER) stop++
        if (stop < end && classAt(text, stop) === LOWER) {
          // Capitals before a lowercase letter: all but the last are a part; the last starts the next one.
          if (stop - at >= 2) stop--
          else while (stop < end && classAt(text, stop) === LOWER) stop++
        }
      } else if (kind === LOWER || kind === DIGIT) {
        while (stop < end && classAt(text, stop) === kind) stop++
      } else {
        at = stop // `_` or `$`: no part
        continue
      }
      parts[count * 2] = at
      parts[count * 2 + 1] = stop
      count++
      at = stop
    }
    return count
  }

  texts.forEach((text, row) => {
    first = true
    const length = text.length
    let at = 0
    while (at < length) {
      const kind = classAt(text, at)
      if (kind === 0) {
        at++
        continue
      }
      const start = at
      // One part: an optional capital, then lowercase letters only.
      let onePart = kind === LOWER || kind === UPPER
      while (++at < length) {
        const next = classAt(text, at)
        if (next === 0) break
        if (next !== LOWER) onePart = false
      }
      const wordSize = at - start
      if (wordSize > MAX_TOKEN) continue
      if (wordSize > 1) writeTerm(text, start, at)
      if (onePart && (kind === LOWER || wordSize > 1)) continue
      const count = split(text, start, at)
      if (count < 2) continue
      for (let k = 0; k < count; k++) {
        const from = parts[k * 2]
        const to = parts[k * 2 + 1]
        if (to - from > 1) writeTerm(text, from, to)
      }
    }
    offsets[row + 1] = size
  })
  return { kind: 'utf8Bytes', bytes: bytes.subarray(0, size), offsets }
}
