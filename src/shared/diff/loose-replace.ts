import { detectIndentStyle, reindentReplacement } from './reindent'
import { leadingWhitespace } from './text'

export interface LooseReplace {
  /** The new LF text; null when the old text matched nowhere or, without replaceAll, in several places. */
  text: string | null
  count: number
}

const body = (line: string): string => line.slice(leadingWhitespace(line).length)
const splitBlock = (block: string): { lines: string[]; newline: boolean } => {
  const newline = block.endsWith('\n')
  return { lines: (newline ? block.slice(0, -1) : block).split('\n'), newline }
}

/**
 * Replaces whole lines that match `oldText` but for each line's leading whitespace (the model wrote
 * spaces where the file has tabs, or another depth), and re-indents `newText` to the file's own
 * style. Every other byte of the file stays as it was. Text is LF.
 */
export function replaceLinesLoosely(text: string, oldText: string, newText: string, replaceAll: boolean): LooseReplace {
  const old = splitBlock(oldText)
  const replacement = splitBlock(newText)
  if (old.lines.every((line) => line.trim() === '')) return { text: null, count: 0 }
  const lines = text.split('\n')
  const keys = old.lines.map(body)
  // A block that ends with a newline needs a line break after its last line.
  const last = lines.length - old.lines.length - (old.newline ? 1 : 0)
  const starts: number[] = []
  for (let i = 0; i <= last; i++) {
    let j = 0
    while (j < keys.length && body(lines[i + j]) === keys[j]) j++
    if (j === keys.length) {
      starts.push(i)
      i += keys.length - 1
    }
  }
  if (starts.length === 0 || (starts.length > 1 && !replaceAll)) return { text: null, count: starts.length }
  const style = detectIndentStyle(lines)
  const out: string[] = []
  let from = 0
  for (const at of starts) {
    out.push(...lines.slice(from, at).map((line) => `${line}\n`))
    const matched = lines.slice(at, at + old.lines.length)
    const fitted = reindentReplacement(old.lines, matched, replacement.lines, style).lines
    const newText = fitted.join('\n') + (replacement.newline ? '\n' : '')
    // Without a trailing newline in the old block, the line break after the match is the file's.
    const tail = old.newline ? '' : at + old.lines.length < lines.length ? '\n' : ''
    out.push(newText + tail)
    from = at + old.lines.length
  }
  const rest = lines.slice(from)
  return { text: out.join('') + rest.join('\n'), count: starts.length }
}
