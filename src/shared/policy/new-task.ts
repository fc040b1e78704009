import { getBuiltInTool } from '../tools/catalog'

export const NEW_TASK_ISOLATION_ERROR =
  'This tool was not executed because new_task was called in the same message. new_task must be the last tool call in a message (only further new_task calls with isolated: true may follow an isolated one); call this tool again after the subtask.'

export interface IsolatedCalls<C> {
  /** Calls to run, in order, up to and including the first that hands the conversation over (and the parallel ones after it). */
  run: C[]
  /** Calls after it: each gets an is_error result with `error`. */
  skipped: Array<{ call: C; error: string }>
}

/** Whether a call hands the conversation over (its definition says lastInMessage: new_task). */
const handsOverByDefinition = (call: { name: string }): boolean => getBuiltInTool(call.name)?.lastInMessage === true

/** A new_task call with `isolated: true`: its subtask runs in its own worktree, beside the others of its message. */
export const runsInParallel = (call: { name: string; input?: unknown }): boolean =>
  call.name === 'new_task' &&
  typeof call.input === 'object' &&
  call.input !== null &&
  (call.input as { isolated?: unknown }).isolated === true

/**
 * Calls after a new_task in the same message are not executed (the subtask takes over), except
 * that an isolated new_task may be followed by more isolated ones: they run side by side.
 */
export function isolateNewTask<C extends { name: string; input?: unknown }>(
  calls: readonly C[],
  handsOver: (call: C) => boolean = handsOverByDefinition
): IsolatedCalls<C> {
  const index = calls.findIndex(handsOver)
  if (index < 0) return { run: [...calls], skipped: [] }
  let end = index + 1
  if (runsInParallel(calls[index])) while (end < calls.length && runsInParallel(calls[end])) end++
  return {
    run: calls.slice(0, end),
    skipped: calls.slice(end).map((call) => ({ call, error: NEW_TASK_ISOLATION_ERROR }))
  }
}
