import type { ToolResultBlock } from '../../../shared/agent/messages'
import { resultText, textResult } from './call-results'
import type { LoopDeps, RunControl, SubtaskOutcome } from './loop-deps'
import type { CallsOutcome } from './process-calls'
import type { CompleteCall } from './stream-turn'
import type { TaskSession } from './task-session'
import { parseTodoChecklist } from './todos'

const LOOP_TOOLS = new Set(['attempt_completion', 'ask_followup_question', 'update_todo_list', 'switch_mode', 'new_task'])

/** Tools the loop answers itself: they change the task, not the workspace. */
export const isLoopTool = (name: string): boolean => LOOP_TOOLS.has(name)

type Finish = (block: ToolResultBlock) => CallsOutcome
type LoopCall = CompleteCall & { params: unknown }

export async function runLoopTool(
  session: TaskSession,
  call: LoopCall,
  deps: LoopDeps,
  control: RunControl,
  finish: Finish
): Promise<CallsOutcome> {
  const params = call.params as Record<string, unknown>
  switch (call.name) {
    case 'attempt_completion':
      return complete(session, call, String(params.result ?? ''), deps)
    case 'ask_followup_question':
      return followup(session, call, params, deps, control, finish)
    case 'update_todo_list':
      return updateTodos(session, call, String(params.todos ?? ''), finish)
    case 'switch_mode':
      return switchMode(session, call, String(params.mode_slug ?? ''), String(params.reason ?? ''), deps, finish)
    case 'new_task':
      return newTask(session, call, params, deps, control, finish)
    default:
      return finish(textResult(call.callId, `Unknown loop tool ${call.name}.`, true))
  }
}

/** Ends the turn: the result waits for the user to accept it or answer (their answer becomes the tool result). */
function complete(session: TaskSession, call: LoopCall, result: string, deps: LoopDeps): CallsOutcome {
  session.counters.mistakes = 0
  session.emit({ type: 'completion', at: deps.now(), result })
  return { kind: 'completed', callId: call.callId, result }
}

async function followup(
  session: TaskSession,
  call: LoopCall,
  params: Record<string, unknown>,
  deps: LoopDeps,
  control: RunControl,
  finish: Finish
): Promise<CallsOutcome> {
  const question = String(params.question ?? '')
  const suggestions = (Array.isArray(params.follow_up) ? params.follow_up : []).map((s: { text?: unknown; mode?: unknown }) => ({
    answer: String(s.text ?? ''),
    mode: typeof s.mode === 'string' && s.mode ? s.mode : undefined
  }))
  session.emit({ type: 'followup', at: deps.now(), callId: call.callId, question, suggestions })
  session.setStatus('waiting')
  session.checkpoint()
  const autoMs = deps.gate.followupAutoAnswerMs(session.mode, session.meta.workspace)
  const first = suggestions[0]
  let timer: NodeJS.Timeout | undefined
  const auto =
    autoMs !== null && first
      ? new Promise<{ text: string; mode?: string; auto: true }>((resolve) => {
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
  if (!answer) return { kind: 'cancelled' }
  session.setStatus('running')
  if ('auto' in answer) session.emit({ type: 'user-message', at: deps.now(), text: answer.text })
  if (answer.mode && answer.mode !== session.mode) {
    if (deps.gate.mode(answer.mode)) session.setMode(answer.mode, 'chosen with a follow-up answer')
  }
  session.counters.mistakes = 0
  return finish(textResult(call.callId, resultText.userMessage(answer.text)))
}

function updateTodos(session: TaskSession, call: LoopCall, markdown: string, finish: Finish): CallsOutcome {
  const parsed = parseTodoChecklist(markdown)
  if (!parsed.ok) {
    session.counters.mistakes++
    return finish(textResult(call.callId, parsed.error))
  }
  session.setTodos(parsed.items)
  return finish(textResult(call.callId, 'Todo list updated.'))
}

function switchMode(
  session: TaskSession,
  call: LoopCall,
  slug: string,
  reason: string,
  deps: LoopDeps,
  finish: Finish
): CallsOutcome {
  const target = deps.gate.mode(slug)
  if (!target) return finish(textResult(call.callId, `Invalid mode: ${slug}. Available modes: ${deps.gate.modes().map((m) => m.slug).join(', ')}.`))
  const from = deps.gate.mode(session.mode)
  if (slug === session.mode) return finish(textResult(call.callId, `Already in ${target.name} mode.`))
  session.setMode(slug, reason || undefined)
  return finish(
    textResult(call.callId, `Switched from ${from?.name ?? session.mode} mode to ${target.name} mode${reason ? ` because: ${reason}` : ''}.`)
  )
}

async function newTask(
  session: TaskSession,
  call: LoopCall,
  params: Record<string, unknown>,
  deps: LoopDeps,
  control: RunControl,
  finish: Finish
): Promise<CallsOutcome> {
  const mode = String(params.mode ?? '')
  if (!deps.gate.mode(mode)) return finish(textResult(call.callId, `Invalid mode: ${mode}. Available modes: ${deps.gate.modes().map((m) => m.slug).join(', ')}.`))
  let todos
  if (typeof params.todos === 'string' && params.todos.trim()) {
    const parsed = parseTodoChecklist(params.todos)
    if (!parsed.ok) return finish(textResult(call.callId, parsed.error))
    todos = parsed.items
  }
  session.emit({ type: 'tool-started', at: deps.now(), callId: call.callId })
  session.setStatus('waiting')
  const outcome = await deps.subtasks.run(session, { callId: call.callId, mode, message: String(params.message ?? ''), todos }, control.signal)
  if (control.signal.aborted) {
    finish(textResult(call.callId, resultText.cancelled('new_task')))
    return { kind: 'cancelled' }
  }
  session.setStatus('running')
  return finish(textResult(call.callId, subtaskResultText(outcome)))
}

export const subtaskResultText = (outcome: SubtaskOutcome): string =>
  outcome.status === 'completed'
    ? `Subtask ${outcome.childId} completed.\n\nResult:\n${outcome.result}`
    : `Subtask ${outcome.childId} ended without completing (${outcome.status}). ${outcome.result}`
