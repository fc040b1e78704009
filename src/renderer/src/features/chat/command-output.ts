import type { ToolItem } from '../../common/chat/task-view'

/** The last lines a command card shows, live or folded. */
export const OUTPUT_LINES = 12

export interface CommandOutput {
  tail: string
  /** Lines printed in all (the tail is the last of them). */
  lines: number
  live: boolean
}

// The header execute_command writes before the output in its result ("Output (1,234 bytes):").
const OUTPUT_HEADER = /^Output(?: so far| before that)? \([\d,]+ bytes[^\n]*\):\n/m
// Paragraphs execute_command appends after the output block.
const TRAILERS = ['\n\nNote: ', '\n\nIts output keeps being saved', '\n\nIt is still running in the task terminal']

/**
 * What the card shows of a command's output: the live tail while it runs (and after, from the same
 * events); after a reload, when only the tool result is known, the end of the output it quotes.
 */
export function commandOutputOf(item: ToolItem): CommandOutput | null {
  if (item.name !== 'execute_command') return null
  if (item.output) return { ...item.output, live: !item.result }
  if (!item.result) return null
  const quoted = quotedOutput(item.result.text)
  if (!quoted) return null
  const all = quoted.split('\n')
  return { tail: all.slice(-OUTPUT_LINES).join('\n'), lines: all.length, live: false }
}

/** The output block of an execute_command result, without the notes after it; null when there was none. */
export function quotedOutput(resultText: string): string | null {
  const header = OUTPUT_HEADER.exec(resultText)
  if (!header) return null
  let body = resultText.slice(header.index + header[0].length)
  for (const trailer of TRAILERS) {
    const at = body.lastIndexOf(trailer)
    if (at >= 0) body = body.slice(0, at)
  }
  body = body.replace(/\n+$/, '')
  return body ? body : null
}

/** "last 12 of 3,402 lines", "2 lines". */
export function outputExtent(output: CommandOutput): string {
  const count = output.tail ? output.tail.split('\n').length : 0
  const total = `${output.lines.toLocaleString('en-US')} line${output.lines === 1 ? '' : 's'}`
  return count < output.lines ? `last ${count} of ${total}` : total
}
