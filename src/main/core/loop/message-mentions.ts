import { attachmentBlock, parseMentions } from '../../../shared/mentions/mentions'
import type { LoopDeps, RunControl } from '../ports/loop-deps'
import type { UrlApproval } from '../ports/mention-port'
import type { TaskSession } from '../ports/task-session'
import { askUser } from './process-calls'

/**
 * The context a user message's @-mentions name, as delimited blocks for the model's copy of the
 * message (the chat keeps the user's own text). A mention that attaches nothing is said in the chat
 * and in its block, so neither the user nor the model takes it for read.
 */
export async function mentionBlocks(
  session: TaskSession,
  deps: LoopDeps,
  control: RunControl,
  text: string
): Promise<string[]> {
  if (!deps.mentions || parseMentions(text).length === 0) return []
  const scope = { taskId: session.id, workspace: session.meta.workspace, mode: session.mode }
  const context = await deps.tools.context({
    ...scope,
    taskTitle: session.meta.title,
    signal: control.signal,
    modelSupportsImages: control.provider.info.supportsImages
  })
  const approveUrl = async (url: string): Promise<UrlApproval> => {
    const args = { action: 'launch', url }
    const verdict = await deps.gate.decide({ name: 'browser_action', params: args }, scope)
    if (verdict.decision === 'allow') return { approved: true }
    if (verdict.decision === 'deny') return { approved: false, reason: verdict.reason }
    const answer = await askUser(session, deps, control, {
      kind: 'tool',
      tool: 'browser_action',
      args,
      verdict,
      summary: `Open ${url} to attach it to your message (@-mention)`
    })
    if (answer.outcome === 'approve') return { approved: true }
    return { approved: false, reason: answer.outcome === 'cancelled' ? 'the task was cancelled' : 'you declined it' }
  }
  const attachments = await deps.mentions.expand(text, {
    taskId: session.id,
    workspace: context.workspace,
    terminal: context.terminal,
    signal: control.signal,
    approveUrl,
    checkPage: context.checkPage
  })
  for (const failed of attachments.filter((a) => !a.ok)) {
    session.emit({
      type: 'error',
      at: deps.now(),
      message: `@${failed.raw} was not attached: ${failed.text}`,
      recoverable: true
    })
  }
  return attachments.map(attachmentBlock)
}
