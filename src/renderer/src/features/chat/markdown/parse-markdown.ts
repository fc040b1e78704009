/**
 * A small Markdown parser for model output. It produces a tree that React renders as elements, so
 * nothing the model writes is ever interpreted as HTML. Covers what models actually write: fenced
 * code (also an unclosed fence while streaming), headings, lists, quotes, tables, rules and inline
 * code, emphasis, strike-through and links (http, https and mailto only).
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'br' }

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; lang: string; text: string; closed: boolean }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'hr' }
  | { type: 'table'; header: Inline[][]; align: Array<'left' | 'center' | 'right' | null>; rows: Inline[][][] }

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)[^\n]*$/
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/
const QUOTE = /^ {0,3}>\s?(.*)$/
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'), 0)
}

const MAX_DEPTH = 12

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (line.trim() === '') {
      i++
      continue
    }
    const fence = FENCE.exec(line)
    if (fence) {
      const marker = fence[1]
      const body: string[] = []
      i++
      while (i < lines.length && !isClosingFence(lines[i], marker)) body.push(lines[i++])
      const closed = i < lines.length
      if (closed) i++
      blocks.push({ type: 'code', lang: fence[2].toLowerCase(), text: body.join('\n'), closed })
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, children: parseInline(heading[2]) })
      i++
      continue
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'hr' })
      i++
      continue
    }
    if (QUOTE.test(line) && depth < MAX_DEPTH) {
      const body: string[] = []
      while (i < lines.length && lines[i].trim() !== '' && QUOTE.test(lines[i])) {
        body.push(QUOTE.exec(lines[i])![1])
        i++
      }
      blocks.push({ type: 'quote', children: parseBlocks(body, depth + 1) })
      continue
    }
    if (LIST_ITEM.test(line) && depth < MAX_DEPTH) {
      const parsed = parseList(lines, i, depth)
      blocks.push(parsed.block)
      i = parsed.next
      continue
    }
    if (
      line.includes('|') &&
      i + 1 < lines.length &&
      TABLE_SEPARATOR.test(lines[i + 1]) &&
      lines[i + 1].includes('-')
    ) {
      const parsed = parseTable(lines, i)
      blocks.push(parsed.block)
      i = parsed.next
      continue
    }
    const body: string[] = []
    while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines[i])) body.push(lines[i++])
    if (body.length === 0) body.push(lines[i++])
    blocks.push({ type: 'paragraph', children: parseInline(body.join('\n')) })
  }
  return blocks
}

const isClosingFence = (line: string, marker: string): boolean => {
  const trimmed = line.trim()
  return trimmed.startsWith(marker) && /^(`+|~+)$/.test(trimmed) && trimmed[0] === marker[0]
}

const startsBlock = (line: string): boolean =>
  FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || LIST_ITEM.test(line)

function parseList(lines: string[], from: number, depth: number): { block: Block; next: number } {
  const first = LIST_ITEM.exec(lines[from])!
  const ordered = /\d/.test(first[2])
  const indent = first[1].length
  const items: Block[][] = []
  let i = from
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i])
    if (!match || match[1].length !== indent || /\d/.test(match[2]) !== ordered) break
    const contentIndent = match[1].length + match[2].length + 1
    const body = [match[3]]
    i++
    while (i < lines.length) {
      const next = lines[i]
      if (next.trim() === '') {
        // A blank line continues the item only when indented content follows.
        if (i + 1 < lines.length && leadingSpaces(lines[i + 1]) >= contentIndent) {
          body.push('')
          i++
          continue
        }
        break
      }
      if (leadingSpaces(next) >= contentIndent || (leadingSpaces(next) > indent && LIST_ITEM.test(next))) {
        body.push(next.slice(Math.min(contentIndent, leadingSpaces(next))))
        i++
        continue
      }
      if (startsBlock(next)) break
      body.push(next.trim()) // lazy continuation of the item's paragraph
      i++
    }
    items.push(parseBlocks(body, depth + 1))
    while (
      i < lines.length &&
      lines[i].trim() === '' &&
      i + 1 < lines.length &&
      isSiblingItem(lines[i + 1], indent, ordered)
    )
      i++
  }
  return { block: { type: 'list', ordered, start: ordered ? parseInt(first[2], 10) : 1, items }, next: i }
}

function isSiblingItem(line: string, indent: number, ordered: boolean): boolean {
  const match = LIST_ITEM.exec(line)
  return Boolean(match && match[1].length === indent && /\d/.test(match[2]) === ordered)
}

const leadingSpaces = (line: string): number => line.length - line.trimStart().length

function splitRow(line: string): string[] {
  let text = line.trim()
  if (text.startsWith('|')) text = text.slice(1)
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1)
  const cells: string[] = []
  let current = ''
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '|') {
      current += '|'
      i++
    } else if (text[i] === '|') {
      cells.push(current.trim())
      current = ''
    } else current += text[i]
  }
  cells.push(current.trim())
  return cells
}

function parseTable(lines: string[], from: number): { block: Block; next: number } {
  const header = splitRow(lines[from])
  const align = splitRow(lines[from + 1]).map((cell) => {
    const left = cell.startsWith(':')
    const right = cell.endsWith(':')
    return left && right ? 'center' : right ? 'right' : left ? 'left' : null
  })
  const rows: Inline[][][] = []
  let i = from + 2
  while (i < lines.length && lines[i].trim() !== '' && lines[i].includes('|')) {
    const cells = splitRow(lines[i])
    rows.push(header.map((_, n) => parseInline(cells[n] ?? '')))
    i++
  }
  return {
    block: {
      type: 'table',
      header: header.map((cell) => parseInline(cell)),
      align: header.map((_, n) => align[n] ?? null),
      rows
    },
    next: i
  }
}

const SAFE_LINK = /^(https?:\/\/|mailto:)/i

/** Only web and mail links survive; anything else (javascript:, file:, data:) renders as text. */
export const safeHref = (href: string): string | null => (SAFE_LINK.test(href.trim()) ? href.trim() : null)

export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = []
  let buffer = ''
  const flush = (): void => {
    if (buffer) out.push({ type: 'text', text: buffer })
    buffer = ''
  }
  let i = 0
  while (i < text.length) {
    const char = text[i]
    if (char === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!|~>]/.test(text[i + 1])) {
      buffer += text[i + 1]
      i += 2
      continue
    }
    if (char === '\n') {
      // Two trailing spaces or a backslash make a hard break; otherwise a soft break is kept as a newline.
      flush()
      out.push({ type: 'br' })
      i++
      continue
    }
    if (char === '`') {
      const ticks = /^`+/.exec(text.slice(i))![0]
      const end = text.indexOf(ticks, i + ticks.length)
      if (end > 0) {
        flush()
        out.push({ type: 'code', text: text.slice(i + ticks.length, end).replace(/^ (.*) $/, '$1') })
        i = end + ticks.length
        continue
      }
      buffer += ticks
      i += ticks.length
      continue
    }
    if (depth < 8 && (char === '*' || char === '_' || char === '~')) {
      const span = matchDelimited(text, i, depth)
      if (span) {
        flush()
        out.push(span.node)
        i = span.next
        continue
      }
    }
    if (char === '[' && depth < 8) {
      const link = matchLink(text, i, depth)
      if (link) {
        flush()
        out.push(link.node)
        i = link.next
        continue
      }
    }
    if (char === '<') {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(text.slice(i))
      if (auto) {
        flush()
        out.push({ type: 'link', href: auto[1], children: [{ type: 'text', text: auto[1] }] })
        i += auto[0].length
        continue
      }
    }
    if ((char === 'h' || char === 'H') && (i === 0 || /[\s(]/.test(text[i - 1]))) {
      const bare = /^https?:\/\/[^\s<>()]+(?:\([^\s<>()]*\)[^\s<>()]*)*/i.exec(text.slice(i, i + 2048))
      if (bare) {
        // Sentence punctuation right after a URL is not part of it.
        const url = bare[0].replace(/[.,;:!?'"*_~]+$/, '')
        flush()
        out.push({ type: 'link', href: url, children: [{ type: 'text', text: url }] })
        i += url.length
        continue
      }
    }
    buffer += char
    i++
  }
  flush()
  return out
}

function matchDelimited(text: string, at: number, depth: number): { node: Inline; next: number } | null {
  for (const [marker, type] of [
    ['**', 'strong'],
    ['__', 'strong'],
    ['~~', 'del'],
    ['*', 'em'],
    ['_', 'em']
  ] as const) {
    if (!text.startsWith(marker, at)) continue
    const innerStart = at + marker.length
    if (innerStart >= text.length || /\s/.test(text[innerStart])) continue
    // Intraword underscores (snake_case) are not emphasis.
    if (marker[0] === '_' && at > 0 && /\w/.test(text[at - 1])) continue
    let end = text.indexOf(marker, innerStart + 1)
    while (end > 0 && (/\s/.test(text[end - 1]) || (marker.length === 1 && text[end + 1] === marker))) {
      end = text.indexOf(marker, end + (marker.length === 1 && text[end + 1] === marker ? 2 : 1))
    }
    if (end < 0) continue
    // `***` closing `**…*…*`: the inner emphasis takes the first star.
    if (marker.length === 2) while (text[end + 2] === marker[0]) end++
    if (marker[0] === '_' && end + marker.length < text.length && /\w/.test(text[end + marker.length])) continue
    return { node: { type, children: parseInline(text.slice(innerStart, end), depth + 1) }, next: end + marker.length }
  }
  return null
}

function matchLink(text: string, at: number, depth: number): { node: Inline; next: number } | null {
  let level = 0
  let close = -1
  for (let i = at; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '[') level++
    else if (text[i] === ']' && --level === 0) {
      close = i
      break
    }
  }
  if (close < 0 || text[close + 1] !== '(') return null
  const target = /^\(\s*<?([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(close + 1))
  if (!target) return null
  const label = parseInline(text.slice(at + 1, close), depth + 1)
  const href = safeHref(target[1])
  const next = close + 1 + target[0].length
  return href
    ? { node: { type: 'link', href, children: label }, next }
    : { node: { type: 'em', children: label }, next }
}

/** Plain text of inline nodes (for labels and tests). */
export const inlineText = (nodes: Inline[]): string =>
  nodes
    .map((node) =>
      node.type === 'text' || node.type === 'code' ? node.text : node.type === 'br' ? '\n' : inlineText(node.children)
    )
    .join('')
