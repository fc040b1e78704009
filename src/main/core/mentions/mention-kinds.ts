import type { Mention, MentionKind } from '../../../shared/mentions/mentions'
import type { MentionScope } from '../ports/mention-port'

/** A mention that attaches nothing, and why in the user's terms (the message still goes). */
export class MentionRefused extends Error {
  override name = 'MentionRefused'
}

/** Opens a page in the task's browser (after approval) and returns it as Markdown. */
export type PageFetcher = (
  taskId: string,
  url: string,
  checkPage: MentionScope['checkPage'],
  signal: AbortSignal
) => Promise<{ markdown: string; finalUrl: string; status: number | null }>

export interface MentionServices {
  /** Absent: `@https://…` attaches nothing (no browser in this host). */
  fetchPage?: PageFetcher
}

/** One mention kind: the text it attaches, or a MentionRefused saying why not. */
export type MentionExpander<K extends MentionKind> = (
  mention: Extract<Mention, { kind: K }>,
  scope: MentionScope,
  services: MentionServices
) => Promise<string>

/** Per mention, at most this much text goes to the model; more is cut with a note saying how to read on. */
export const MAX_ATTACHMENT_CHARS = 100_000

/** Cuts text at a line boundary below the limit, saying what was left out. */
export function capText(text: string, what: string, howToReadMore: string): string {
  if (text.length <= MAX_ATTACHMENT_CHARS) return text
  const cut = text.lastIndexOf('\n', MAX_ATTACHMENT_CHARS)
  const kept = text.slice(0, cut > 0 ? cut : MAX_ATTACHMENT_CHARS)
  const shownLines = kept.split('\n').length
  return `${kept}\n(${what} cut after ${shownLines} lines, at ${MAX_ATTACHMENT_CHARS.toLocaleString('en-US')} characters. ${howToReadMore})`
}
