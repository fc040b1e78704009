import type { CommandAnalysis } from './shell/analyze'
import type { ShellWord } from './shell/types'

/**
 * A deny or ask rule names a program (`touch`, `rm -rf *` names `rm`). Programs run programs in
 * ways no table can list (`linux64 touch P`, `sed 's/x/touch P/e'`, `sg grp -c 'touch P'`), so a
 * line in which that name appears as a word, or as the last part of a path, is never
 * auto-approved, unless the word is one the rules were matched on as a program, or one the
 * analysis proved is plain data (a file a known reader reads, a quoted message).
 *
 * Both the line's text and the words' values are searched: the text finds a name inside a quoted
 * string (`-c 'touch P'`), the values find one spelled with escapes or braces (`$'\x74ouch'`).
 */

/** Characters that continue a name: `touch.sh`, `mytouch`, `touch-all` are other names. */
const NAME_CHAR = /[A-Za-z0-9_.-]/

/** The program a rule names: its first word, without a path, or undefined for a glob. */
const programs = new Map<string, string | undefined>()

export function ruleProgram(rule: string): string | undefined {
  if (programs.has(rule)) return programs.get(rule)
  if (programs.size > 5000) programs.clear()
  const name = programOf(rule)
  programs.set(rule, name)
  return name
}

function programOf(rule: string): string | undefined {
  const first = rule.trim().split(/[ \t]+/)[0] ?? ''
  const name = first
    .slice(first.lastIndexOf('/') + 1)
    .replace(/:\*?$/, '')
    .toLowerCase()
  return name && !name.includes('*') && !name.startsWith('-') ? name : undefined
}

/** The offsets where `name` stands alone in `text` (both already lower-cased). */
function occurrences(text: string, name: string): number[] {
  const found: number[] = []
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1]
    const after = text[at + name.length]
    if ((before === undefined || !NAME_CHAR.test(before)) && (after === undefined || !NAME_CHAR.test(after)))
      found.push(at)
  }
  return found
}

/** The spans of the exempt words whose offsets are those of the line (not of code inside a string). */
function exemptSpans(line: string, analysis: CommandAnalysis): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  for (const part of analysis.parts)
    for (const word of [...part.programWords, ...part.dataWords])
      if (line.slice(word.start, word.end) === word.raw) spans.push([word.start, word.end])
  return spans
}

/**
 * What a word spells itself: its value without the substitutions it holds (`$(git status)` is a
 * command of its own, decided as a part) or the variables it reads.
 */
function ownText(text: string, expands: boolean): string {
  if (!expands) return text
  for (let before = ''; before !== text;) {
    before = text
    text = text.replace(/\$\([^()]*\)|`[^`]*`|\$\{[^{}]*\}|[<>=]\([^()]*\)/g, ' ')
  }
  return text.replace(/\$[A-Za-z_][A-Za-z0-9_]*/g, ' ')
}

/**
 * Whether `name` appears in the word where the rules did not see it: in its source text (outside
 * the program words of the commands substituted in it), or in its decoded value.
 */
function wordNames(line: string, word: ShellWord, name: string, spans: () => Array<[number, number]>): boolean {
  const inRaw = occurrences(word.raw.toLowerCase(), name)
  if (inRaw.length > 0) {
    if (line.slice(word.start, word.end) !== word.raw) return true
    const exempt = spans()
    const hidden = (at: number): boolean =>
      exempt.some(([start, end]) => word.start + at >= start && word.start + at + name.length <= end)
    if (inRaw.some((at) => !hidden(at))) return true
  }
  return occurrences(ownText(word.value, word.expands).toLowerCase(), name).length > 0
}

/** What every rule's search in one line shares, computed once. */
export class LineScan {
  readonly lower: string
  private decodedText: string | undefined
  private spanList: Array<[number, number]> | undefined

  constructor(
    readonly line: string,
    readonly analysis: CommandAnalysis
  ) {
    this.lower = line.toLowerCase()
  }

  /** The values of the words that differ from their text in the line (decoded quotes, escapes, braces); built when first read. */
  get decoded(): string {
    if (this.decodedText === undefined) {
      let decoded = ''
      // Brace expansion makes words whose text is not the line's at their offsets (`tou{ch,}`).
      for (const part of this.analysis.parts)
        for (const word of part.words)
          if (word.value !== word.raw || this.line.slice(word.start, word.end) !== word.raw) decoded += ` ${word.value}`
      this.decodedText = decoded.toLowerCase()
    }
    return this.decodedText
  }

  get spans(): Array<[number, number]> {
    return (this.spanList ??= exemptSpans(this.line, this.analysis))
  }
}

/** Whether `name` appears in the line anywhere but a program word or a proven data word. */
export function nameAppears(scan: LineScan, name: string): boolean {
  const inLine = occurrences(scan.lower, name)
  if (inLine.length === 0 && occurrences(scan.decoded, name).length === 0) return false
  // Fast answer: every mention is a program word or a data word of the line itself.
  const covered = (at: number): boolean => scan.spans.some(([start, end]) => at >= start && at + name.length <= end)
  if (occurrences(scan.decoded, name).length === 0 && inLine.every(covered)) return false
  const { line, analysis } = scan
  const mentions = (word: ShellWord): boolean =>
    word.raw.toLowerCase().includes(name) || word.value.toLowerCase().includes(name)
  for (const part of analysis.parts) {
    for (const word of [...part.words, ...part.command.assignments]) {
      if (part.programWords.has(word) || part.dataWords.has(word) || !mentions(word)) continue
      if (wordNames(line, word, name, () => scan.spans)) return true
    }
    for (const redirect of part.command.redirects)
      if (redirect.body && occurrences(ownText(redirect.body, true).toLowerCase(), name).length > 0) return true
  }
  return false
}
