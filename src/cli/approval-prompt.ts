import type { ApprovalItem } from '../shared/contract/approvals'
import type { ApprovalDecision } from '../shared/contract/approvals'
import { displayCounts, displayRows } from '../shared/diff/hunks'
import type { LineReader } from './cli-io'
import { visible } from './visible'

/** Shows an approval item on the terminal and turns the typed answer into a decision. */
export async function askOnTerminal(
  item: ApprovalItem,
  reader: LineReader,
  stream: NodeJS.WritableStream
): Promise<ApprovalDecision> {
  // Everything here quotes the model (commands, paths, diffs): shown with its controls visible.
  const out = { write: (text: string) => stream.write(visible(text)) }
  out.write(`\n── Approval needed (${item.kind}) in ${item.mode} mode ──\n`)
  // A pause (mistake or cost limit) is its own reason: said once.
  out.write(
    item.reason === item.summary
      ? `${item.summary} [${item.rule}]\n`
      : `${item.summary}\nWhy: ${item.reason} [${item.rule}]\n`
  )
  // Every tool's arguments, in full: a summary (an MCP tool's name) may not show what the call does.
  if (item.tool && item.args !== undefined) out.write(`Arguments: ${argumentsText(item.args)}\n`)
  for (const change of item.changes ?? []) {
    out.write(`\n${change.operation} ${change.path}\n`)
    for (const hunk of change.hunks) {
      const shown = displayCounts(hunk)
      out.write(
        `@@ -${hunk.oldStart},${shown.oldLines} +${hunk.newStart},${shown.newLines} @@\n${displayRows(hunk).join('\n')}\n`
      )
    }
  }
  if (item.kind === 'mistake-limit') return askGuidance(item, reader)
  const options = [
    '[y]es',
    '[n]o',
    ...(item.messageId ? ['[t]urn (yes to the rest of this message)'] : []),
    ...(item.suggestedRule ? [`[a]lways: ${item.suggestedRule.label}`] : [])
  ]
  for (;;) {
    const line = await reader.ask(visible(`${options.join(', ')}? `))
    if (line === null)
      return { approvalId: item.id, outcome: 'reject', scope: 'call', reason: 'No answer: the input ended.' }
    const answer = line.trim().toLowerCase()
    if (answer === 'y' || answer === 'yes') return { approvalId: item.id, outcome: 'approve', scope: 'call' }
    if ((answer === 't' || answer === 'turn') && item.messageId)
      return { approvalId: item.id, outcome: 'approve', scope: 'turn' }
    if ((answer === 'a' || answer === 'always') && item.suggestedRule) {
      return { approvalId: item.id, outcome: 'approve', scope: 'call', alwaysAllow: item.suggestedRule.rule }
    }
    if (answer === 'n' || answer === 'no') {
      const reason = await reader.ask('Reason for the model (optional): ')
      return { approvalId: item.id, outcome: 'reject', scope: 'call', reason: reason?.trim() || undefined }
    }
    out.write('Please answer y, n' + (item.messageId ? ', t' : '') + (item.suggestedRule ? ' or a' : '') + '.\n')
  }
}

/** The mistake limit asks for guidance: typed text continues with it, Enter continues without, n stops. */
async function askGuidance(item: ApprovalItem, reader: LineReader): Promise<ApprovalDecision> {
  const line = await reader.ask('Guidance for the model (Enter: continue without, n: stop): ')
  if (line === null)
    return { approvalId: item.id, outcome: 'reject', scope: 'call', reason: 'No answer: the input ended.' }
  const answer = line.trim()
  if (/^(n|no)$/i.test(answer)) return { approvalId: item.id, outcome: 'reject', scope: 'call' }
  return { approvalId: item.id, outcome: 'approve', scope: 'call', reason: answer || undefined }
}

/** The call's arguments as JSON, indented when they hold more than one short value. */
function argumentsText(args: unknown): string {
  const flat = JSON.stringify(args) ?? String(args)
  return flat.length <= 100 ? flat : JSON.stringify(args, null, 2)
}
