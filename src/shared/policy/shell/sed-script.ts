/**
 * What a sed script does beyond editing text: GNU sed's `e` command and the `e` flag of `s` run a
 * shell command; `w`/`W` (and `s///w`) write a file. The script is read command by command as GNU
 * sed reads it; anything this reader does not recognise is reported, so the caller asks.
 */
export interface SedFindings {
  runs: boolean
  writes: boolean
  unreadable: boolean
}

/** Commands that take no argument. */
const BARE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '{', '}'])
/** Commands that take the rest of the line (a label, a file name, a text, a number). */
const REST_OF_LINE = new Set(['a', 'i', 'c', 'r', 'R', 'w', 'W', ':', 'b', 't', 'T', 'l', 'q', 'Q', 'L', 'v', '#', 'e'])

class SedReader {
  at = 0
  readonly found: SedFindings = { runs: false, writes: false, unreadable: false }
  constructor(private readonly script: string) {}

  read(): SedFindings {
    while (this.at < this.script.length && !this.found.unreadable) this.command()
    return this.found
  }

  private skip(chars: RegExp): void {
    while (this.at < this.script.length && chars.test(this.script[this.at])) this.at++
  }

  /** Text up to an unescaped `delimiter`; the reader stands after it. */
  private delimited(delimiter: string): void {
    while (this.at < this.script.length) {
      const c = this.script[this.at++]
      if (c === '\\') this.at++
      else if (c === delimiter) return
      else if (c === '\n' && delimiter !== '\n') break
    }
    this.found.unreadable = true
  }

  private address(): void {
    for (let part = 0; part < 2; part++) {
      const c = this.script[this.at]
      if (c === '/') {
        this.at++
        this.delimited('/')
        this.skip(/[IM]/)
      } else if (c === '\\') {
        const delimiter = this.script[this.at + 1] ?? ''
        this.at += 2
        this.delimited(delimiter)
        this.skip(/[IM]/)
      } else if (c !== undefined && /[0-9$+~]/.test(c)) this.skip(/[0-9$+~]/)
      this.skip(/[ \t]/)
      if (part === 0 && this.script[this.at] === ',') {
        this.at++
        this.skip(/[ \t]/)
      } else return
    }
  }

  private restOfLine(): string {
    const end = this.script.indexOf('\n', this.at)
    const stop = end < 0 ? this.script.length : end
    // A one-line label or file name also ends at `;` for the branch commands (GNU).
    const text = this.script.slice(this.at, stop)
    this.at = stop
    return text
  }

  private command(): void {
    this.skip(/[ \t\n;]/)
    if (this.at >= this.script.length) return
    this.address()
    this.skip(/[ \t!]/)
    const c = this.script[this.at++]
    if (c === undefined) return
    if (BARE.has(c)) return
    if (c === 's' || c === 'y') {
      const delimiter = this.script[this.at++] ?? ''
      if (!delimiter || delimiter === '\n' || delimiter === '\\') {
        this.found.unreadable = true
        return
      }
      this.delimited(delimiter)
      this.delimited(delimiter)
      if (c === 'y') return
      const flags = /^[gpiImMe0-9]*/.exec(this.script.slice(this.at))?.[0] ?? ''
      this.at += flags.length
      if (flags.includes('e')) this.found.runs = true
      if (this.script[this.at] === 'w' || this.script[this.at] === 'W') {
        this.found.writes = true
        this.restOfLine()
      }
      return
    }
    if (REST_OF_LINE.has(c)) {
      if (c === 'e') this.found.runs = true
      if (c === 'w' || c === 'W') this.found.writes = true
      if ((c === 'b' || c === 't' || c === 'T' || c === ':') && /^[^;\n]*;/.test(this.script.slice(this.at))) {
        this.at = this.script.indexOf(';', this.at) + 1
        return
      }
      if ((c === 'a' || c === 'i' || c === 'c') && this.script[this.at] === '\\') this.textLines()
      else this.restOfLine()
      return
    }
    this.found.unreadable = true
  }

  /** `a\` text: lines up to one that does not end with a backslash. */
  private textLines(): void {
    for (;;) {
      const line = this.restOfLine()
      this.at++
      if (!line.endsWith('\\') || this.at >= this.script.length) return
    }
  }
}

export const sedScript = (script: string): SedFindings => new SedReader(script).read()

/** The scripts of a sed command line (`-e`, `--expression`, or the first operand), and whether one comes from a file. */
export function sedScripts(args: readonly string[]): { scripts: string[]; fromFile: boolean } {
  const scripts: string[] = []
  let fromFile = false
  let firstOperand: string | undefined
  for (let i = 0; i < args.length; i++) {
    const word = args[i]
    if (word === '--') {
      firstOperand ??= args[i + 1]
      break
    }
    if (word.startsWith('--')) {
      const [name, value] = word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined]
      if (name === '--expression') scripts.push(value ?? args[++i] ?? '')
      else if (name === '--file') {
        fromFile = true
        if (value === undefined) i++
      } else if (name === '--line-length' && value === undefined) i++
      continue
    }
    if (word.startsWith('-') && word.length > 1) {
      for (let j = 1; j < word.length; j++) {
        const letter = word[j]
        if (letter === 'i') break
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          const value = j < word.length - 1 ? word.slice(j + 1) : (args[++i] ?? '')
          if (letter === 'e') scripts.push(value)
          if (letter === 'f') fromFile = true
          break
        }
      }
      continue
    }
    firstOperand ??= word
  }
  if (scripts.length === 0 && !fromFile && firstOperand !== undefined) scripts.push(firstOperand)
  return { scripts, fromFile }
}
