/**
 * @-mentions in a user message: `@path/to/file`, `@folder/`, `@terminal`, `@git-changes` and
 * `@https://…`. The chat shows them as chips; the core attaches what each names to the message the
 * model receives (see core/mentions). Pure: the renderer, the core and the CLI share this parser.
 */
// Plain types, no zod: the chat renders chips with this module, and it must not pull the schema
// library into the renderer's first chunk (issue 28 item 21).
export type Mention =
  | { kind: 'file'; path: string }
  | { kind: 'folder'; path: string }
  | { kind: 'terminal' }
  | { kind: 'git-changes' }
  | { kind: 'url'; url: string }
export type MentionKind = Mention['kind']

/** One mention as written in the text: `raw` is what follows the `@`, `start`/`end` span the `@` too. */
export interface MentionToken {
  mention: Mention
  raw: string
  start: number
  end: number
}

/** What a mention attached for the model, or why it attached nothing (shown to the user too). */
export interface MentionAttachment {
  raw: string
  kind: MentionKind
  ok: boolean
  /** The attached text (ok) or the reason nothing was attached. */
  text: string
}

/** The special words completion offers beside paths. */
export const SPECIAL_MENTIONS = ['terminal', 'git-changes'] as const

/** At most this many mentions of one message are expanded; the rest are named as skipped. */
export const MAX_MENTIONS = 20

// A mention starts the text or follows whitespace or an opening bracket, so `me@example.com` is none.
const MENTION = /(^|[\s([{])@([^\s]+)/g
// Sentence punctuation after a mention is not part of it ("see @src/a.ts, then…").
const TRAILING = /[.,;:!?)\]}'"]+$/

function isUrl(text: string): boolean {
  try {
    new URL(text)
    return true
  } catch {
    return false
  }
}

/** The mention a written token stands for; null when it names nothing a mention can be. */
export function mentionOf(raw: string): Mention | null {
  if (raw === 'terminal') return { kind: 'terminal' }
  if (raw === 'git-changes') return { kind: 'git-changes' }
  if (/^https?:\/\//i.test(raw)) {
    return raw.length <= 8192 && isUrl(raw) ? { kind: 'url', url: raw } : null
  }
  if (raw.length > 4096 || raw.includes('\0')) return null
  if (raw.endsWith('/')) return { kind: 'folder', path: raw.length > 1 ? raw.slice(0, -1) : '.' }
  return { kind: 'file', path: raw }
}

/** Every mention in the text, in order (an address keeps its punctuation except a final one). */
export function parseMentions(text: string): MentionToken[] {
  const tokens: MentionToken[] = []
  for (const match of text.matchAll(MENTION)) {
    const lead = match[1] ?? ''
    const raw = (match[2] ?? '').replace(TRAILING, '')
    if (raw === '') continue
    const mention = mentionOf(raw)
    if (!mention) continue
    const start = (match.index ?? 0) + lead.length
    tokens.push({ mention, raw, start, end: start + 1 + raw.length })
  }
  return tokens
}

/** The text cut into plain runs and mentions, for the chat's chips. */
export type MentionSegment = { kind: 'text'; text: string } | { kind: 'mention'; token: MentionToken }

export function segmentMentions(text: string): MentionSegment[] {
  const segments: MentionSegment[] = []
  let at = 0
  for (const token of parseMentions(text)) {
    if (token.start > at) segments.push({ kind: 'text', text: text.slice(at, token.start) })
    segments.push({ kind: 'mention', token })
    at = token.end
  }
  if (at < text.length) segments.push({ kind: 'text', text: text.slice(at) })
  return segments
}

/** How an attachment reaches the model: delimited so it is never mistaken for the user's words. */
export function attachmentBlock(attachment: MentionAttachment): string {
  const name =
    attachment.kind === 'url' ? 'url' : attachment.kind === 'file' || attachment.kind === 'folder' ? 'path' : 'name'
  const value = escapeAttribute(attachment.raw)
  if (!attachment.ok) return `<mention ${name}="${value}" attached="no">${attachment.text}</mention>`
  return `<mention ${name}="${value}">\n${attachment.text}\n</mention>`
}

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
