import type { TodoItem } from '../store/task-replay'

const CHECKLIST_LINE = /^\s*(?:[-*]\s*)?\[\s*([ xX\-~])\s*\]\s+(.+?)\s*$/

/**
 * Parses the markdown checklist of update_todo_list: `[ ]` pending, `[x]` done, `[-]` or `[~]` in
 * progress. Lines that are not checklist items are an error, so the model learns the format.
 */
export function parseTodoChecklist(markdown: string): { ok: true; items: TodoItem[] } | { ok: false; error: string } {
  const items: TodoItem[] = []
  const bad: string[] = []
  for (const line of markdown.split(/\r?\n/)) {
    if (line.trim() === '') continue
    const match = CHECKLIST_LINE.exec(line)
    if (!match) {
      bad.push(line.trim())
      continue
    }
    const mark = match[1].toLowerCase()
    items.push({ text: match[2], status: mark === 'x' ? 'completed' : mark === ' ' ? 'pending' : 'in_progress' })
  }
  if (bad.length > 0) {
    return {
      ok: false,
      error: `Invalid todos format: every line must be a checklist item like "[ ] step", "[-] step in progress" or "[x] done step". Not understood: ${bad
        .slice(0, 3)
        .map((l) => JSON.stringify(l))
        .join(', ')}`
    }
  }
  if (items.length === 0) return { ok: false, error: 'Invalid todos format: the checklist is empty.' }
  return { ok: true, items }
}

export const formatTodos = (items: TodoItem[]): string =>
  items
    .map((item) => `[${item.status === 'completed' ? 'x' : item.status === 'in_progress' ? '-' : ' '}] ${item.text}`)
    .join('\n')
