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
    const out: number[] = []
    const starts = this.lineStarts()
    if (fromLine >= starts.length) return out
    for (let at = this.text.indexOf(needle, starts[Math.max(0, fromLine)]); at !== -1; ) {
      const line = this.lineOf(at)
      out.push(line)
      if (line + 1 >= starts.length) break
      at = this.text.indexOf(needle, starts[line + 1])
    }
    return out
  }

  /** As `linesHolding`, found as they are asked for (a search that stops early scans no further). */
  *eachLineHolding(needle: string, fromLine = 0): Generator<number> {
    const starts = this.lineStarts()
    if (fromLine >= starts.length) return
    for (let at = this.text.indexOf(needle, starts[Math.max(0, fromLine)]); at !== -1; ) {
      const line = this.lineOf(at)
      yield line
      if (line + 1 >= starts.length) return
      at = this.text.indexOf(needle, starts[line + 1])
    }
  }

  /** Lines with a character outside ASCII, ascending. */
  nonAsciiLines(): number[] {
    if (this.nonAscii) return this.nonAscii
    const out: number[] = []
    const starts = this.lineStarts()
    const re = new RegExp(NON_ASCII.source, 'g')
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
      const line = this.lineOf(m.index)
      out.push(line)
      if (line + 1 >= starts.length) break
      re.lastIndex = starts[line + 1]
    }
    return (this.nonAscii = out)
  }

  /** The line holding text offset `offset`. */
  private lineOf(offset: number): number {
    const starts = this.lineStarts()
    let lo = 0
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

const NON_ASCII = /[^\x00-\x7F]/

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
