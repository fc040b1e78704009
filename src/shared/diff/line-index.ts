import { matchKey } from './text'

/**
 * A file's lines with what the edit engines' searches need, computed on demand: each line's match
 * key, and the lines holding a given substring, found with native `indexOf` passes over the text
 * instead of a key per line (50k lines cost tens of milliseconds to key, a pass a fraction of one).
 *
 * Why a substring finds every candidate: a line's key is its text with punctuation normalised,
 * whitespace runs collapsed and the ends trimmed. For a line of ASCII text normalising changes
 * nothing, so every whitespace-free run of characters in its key is a substring of the line itself.
 * Lines holding other characters are few; `nonAsciiLines` lists them to be checked one by one.
 */
export class LineIndex {
  private starts: Int32Array | null = null
  private nonAscii: number[] | null = null
  private readonly keys: Array<string | undefined>
  /**
   * Needles no line holds from the given line on. A needle containing one of them is absent too:
   * the failure path looks for a missing line's words and then for longer runs holding them.
   */
  private readonly absentFrom = new Map<string, number>()

  /** `text` is `lines.join('\n')`, optionally followed by one more newline. */
  constructor(
    readonly text: string,
    readonly lines: readonly string[],
    keys?: Array<string | undefined>
  ) {
    this.keys = keys ?? new Array<string | undefined>(lines.length)
  }

  static of(lines: readonly string[]): LineIndex {
    return new LineIndex(lines.join('\n'), lines)
  }

  get length(): number {
    return this.lines.length
  }

  keyAt(i: number): string {
    return (this.keys[i] ??= matchKey(this.lines[i]))
  }

  isAscii(i: number): boolean {
    return !NON_ASCII.test(this.lines[i])
  }

  /** Lines from `fromLine` on holding `needle` (no newline in it), ascending, each once. */
  linesHolding(needle: string, fromLine = 0): number[] {
    const from = Math.max(0, fromLine)
    const until = this.absentAfter(needle)
    const found: number[] = []
    for (
      let line = this.nextHolding(needle, from, until);
      line !== -1;
      line = this.nextHolding(needle, line + 1, until)
    )
      found.push(line)
    return this.noteIfAbsent(needle, from, found)
  }

  /** As `linesHolding`, found as they are asked for (a search that stops early scans no further). */
  *eachLineHolding(needle: string, fromLine = 0): Generator<number> {
    const from = Math.max(0, fromLine)
    const until = this.absentAfter(needle)
    let line = this.nextHolding(needle, from, until)
    if (line === -1) this.noteIfAbsent(needle, from, [])
    for (; line !== -1; line = this.nextHolding(needle, line + 1, until)) yield line
  }

  /** The first line from `from`, before `until`, holding `needle`, or -1. A few lines are looked through one by one. */
  private nextHolding(needle: string, from: number, until: number): number {
    const starts = this.lineStarts()
    const end = Math.min(until, starts.length)
    if (from >= end) return -1
    if (end - from <= FEW_LINES) {
      for (let i = from; i < end; i++) if (this.lines[i].includes(needle)) return i
      return -1
    }
    const at = this.text.indexOf(needle, starts[from])
    if (at === -1) return -1
    const line = this.lineFrom(from, at)
    return line < end ? line : -1
  }

  /** The first line from which no line holds `needle`, as far as absent needles inside it tell. */
  private absentAfter(needle: string): number {
    let after = Infinity
    for (const [absent, from] of this.absentFrom) if (from < after && needle.includes(absent)) after = from
    return after
  }

  private noteIfAbsent(needle: string, from: number, found: number[]): number[] {
    if (found.length === 0 && this.absentFrom.size < MAX_ABSENT_NOTED)
      this.absentFrom.set(needle, Math.min(from, this.absentFrom.get(needle) ?? from))
    return found
  }

  /** Lines with a character outside ASCII, ascending. */
  nonAsciiLines(): number[] {
    if (this.nonAscii) return this.nonAscii
    const out: number[] = []
    const starts = this.lineStarts()
    const re = new RegExp(NON_ASCII.source, 'g')
    let line = 0
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
      line = this.lineFrom(line, m.index)
      out.push(line)
      if (++line >= starts.length) break
      re.lastIndex = starts[line]
    }
    return (this.nonAscii = out)
  }

  /** Where line `line` starts in the text; the text's length for the line after the last. */
  offsetOf(line: number): number {
    const starts = this.lineStarts()
    return line < starts.length ? starts[line] : this.text.length
  }

  /**
   * The line holding text offset `offset`, at or after line `from`. Hits of a common word come a few
   * lines apart: the next lines are looked at first, the rest is bisected.
   */
  private lineFrom(from: number, offset: number): number {
    const starts = this.lineStarts()
    let lo = from
    for (let step = 0; step < 8; step++, lo++) if (lo + 1 >= starts.length || starts[lo + 1] > offset) return lo
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  private lineStarts(): Int32Array {
    if (this.starts) return this.starts
    const starts = new Int32Array(this.lines.length)
    let offset = 0
    for (let i = 0; i < this.lines.length; i++) {
      starts[i] = offset
      offset += this.lines[i].length + 1
    }
    return (this.starts = starts)
  }
}

/** Lines few enough to look through one by one rather than scan the text for. */
const FEW_LINES = 256
const MAX_ABSENT_NOTED = 64

// A range, not a negated class: V8 scans for it about twice as fast.
const NON_ASCII = /[\u0080-\uffff]/

/**
 * The longest whitespace-free run of a key, when the key is ASCII: a substring every ASCII line with
 * this key holds (see LineIndex). Null for a blank or non-ASCII key (only non-ASCII lines can have
 * a non-ASCII key).
 */
export function probeOf(key: string): string | null {
  if (NON_ASCII.test(key)) return null
  let best = ''
  for (const run of key.split(/\s+/)) if (run.length > best.length) best = run
  return best === '' ? null : best
}
