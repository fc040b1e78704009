/** The `@word` the caret is in (from the `@` to the caret), or null when the caret is not in one. */
export interface ActiveMention {
  /** Index of the `@`. */
  start: number
  /** What follows the `@`, up to the caret. */
  query: string
}

export function activeMention(text: string, caret: number): ActiveMention | null {
  const before = text.slice(0, caret)
  const at = before.lastIndexOf('@')
  if (at < 0) return null
  const query = before.slice(at + 1)
  if (/\s/.test(query)) return null
  if (at > 0 && !/[\s([{]/.test(before[at - 1])) return null
  return { start: at, query }
}

/** The text with the active `@query` replaced by the choice; a folder keeps completing, anything else ends with a space. */
export function applyMention(text: string, active: ActiveMention, choice: string): { text: string; caret: number } {
  const end = active.start + 1 + active.query.length
  const rest = text.slice(end)
  const continues = choice.endsWith('/')
  const inserted = `@${choice}${continues || rest.startsWith(' ') ? '' : ' '}`
  return { text: text.slice(0, active.start) + inserted + rest, caret: active.start + inserted.length }
}

export interface MentionOption {
  /** What goes after the `@`. */
  value: string
  label: string
  kind: 'file' | 'folder' | 'special'
  hint?: string
}

const SPECIALS: MentionOption[] = [
  { value: 'terminal', label: '@terminal', kind: 'special', hint: "the task terminal's last output" },
  { value: 'git-changes', label: '@git-changes', kind: 'special', hint: 'the working-tree diff' },
  { value: 'https://', label: '@url', kind: 'special', hint: 'a web page, as Markdown (asks first)' }
]

/** The special mentions whose name continues the query (all of them for an empty one). */
export function specialOptions(query: string): MentionOption[] {
  const q = query.toLowerCase()
  return SPECIALS.filter((s) => s.value.startsWith(q) || s.label.slice(1).startsWith(q))
}
