/**
 * The last `keep` characters of a stream, held as the chunks that arrived: whole chunks are
 * dropped from the front, so adding a chunk never copies text (the capture path runs per pty
 * chunk). Joining happens only when the text is read.
 */
export interface TextRing {
  push(text: string): void
  /** The last `keep` characters. */
  text(): string
  /** Characters currently held (at least min(keep, total), at most keep + one chunk). */
  size(): number
  /** Characters pushed and already dropped (or cut by `text()`). */
  dropped(): number
}

export function createTextRing(keepChars: number): TextRing {
  const keep = Math.max(1, keepChars)
  let chunks: string[] = []
  let first = 0
  let held = 0
  let droppedChars = 0
  return {
    push(text) {
      if (!text) return
      chunks.push(text)
      held += text.length
      while (held - chunks[first].length >= keep) {
        held -= chunks[first].length
        droppedChars += chunks[first].length
        chunks[first++] = ''
      }
      // Compact the array now and then so it does not grow with the dropped slots.
      if (first > 1024 && first * 2 > chunks.length) {
        chunks = chunks.slice(first)
        first = 0
      }
    },
    text() {
      const joined = chunks.slice(first).join('')
      return joined.length > keep ? joined.slice(joined.length - keep) : joined
    },
    size: () => held,
    dropped: () => droppedChars + Math.max(0, held - keep)
  }
}
