import type { AskFollowupQuestionParams } from '../../../shared/tools/ask-followup-question'
import { resultText } from '../ports/call-results'
import { textOutput, type TaskToolContext, type TaskToolExecutor } from '../ports/tool-types'

type Answer = { text: string; mode?: string; auto?: true }

/**
 * Puts the question to the user and waits for their next message, or for the mode's auto-answer
 * delay (then the first suggestion answers it). An answer that names a mode switches to it.
 */
export const askFollowupQuestionExecutor: TaskToolExecutor<AskFollowupQuestionParams> = {
  async execute(params, ctx) {
    const { session, loop } = ctx
    const suggestions = params.follow_up.map((s) => ({ answer: s.text, mode: s.mode || undefined }))
    session.emit({ type: 'followup', at: loop.now(), callId: ctx.callId, question: params.question, suggestions })
    session.setStatus('waiting')
    session.checkpoint()
    const answer = await waitForAnswer(ctx, suggestions[0])
    if (!answer) return { kind: 'cancelled' }
    session.setStatus('running')
    if (answer.auto) session.emit({ type: 'user-message', at: loop.now(), text: answer.text })
    if (answer.mode && answer.mode !== session.mode && loop.gate.mode(answer.mode)) {
      session.setMode(answer.mode, 'chosen with a follow-up answer')
    }
    session.counters.mistakes = 0
    // The user's answer is a message like any other: what its @-mentions name goes with it.
    const attached = answer.auto ? [] : await ctx.attachMentions(answer.text)
    return { kind: 'result', output: textOutput([resultText.userMessage(answer.text), ...attached].join('\n\n')) }
  }
}

async function waitForAnswer(
  ctx: TaskToolContext,
  first: { answer: string; mode?: string } | undefined
): Promise<Answer | null> {
  const { session, loop, control } = ctx
  const autoMs = loop.gate.followupAutoAnswerMs(session.mode, session.meta.workspace)
  let timer: NodeJS.Timeout | undefined
  const auto =
    autoMs !== null && first
      ? new Promise<Answer>((resolve) => {
          timer = setTimeout(() => resolve({ text: first.answer, mode: first.mode, auto: true }), autoMs)
        })
      : null
  const cancelled = new Promise<null>((resolve) => {
    if (control.signal.aborted) resolve(null)
    control.signal.addEventListener('abort', () => resolve(null), { once: true })
  })
  const fromUser = control.nextAnswer()
  const answer = await Promise.race([fromUser.answer, cancelled, ...(auto ? [auto] : [])])
  if (timer) clearTimeout(timer)
  // Answered by the timer (or cancelled): a later message must not go to this question.
  fromUser.withdraw()
  return answer
}
