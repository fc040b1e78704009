import { getBuiltInTool } from '../tools/catalog'

export const NEW_TASK_ISOLATION_ERROR =
  'This tool was not executed because new_task was called in the same message. new_task must be the last tool call in a message; call this tool again after the subtask.'

export interface IsolatedCalls<C> {
  /** Calls to run, in order, up to and including the first that hands the conversation over. */
  run: C[]
  /** Calls after it: each gets an is_error result with `error`. */
  skipped: Array<{ call: C; error: string }>
}

/** Whether a call hands the conversation over (its definition says lastInMessage: new_task). */
const handsOverByDefinition = (call: { name: string }): boolean => getBuiltInTool(call.name)?.lastInMessage === true

/** Calls after a new_task in the same message are not executed (the subtask takes over). */
export function isolateNewTask<C extends { name: string }>(
  calls: readonly C[],
  handsOver: (call: C) => boolean = handsOverByDefinition
): IsolatedCalls<C> {
  const index = calls.findIndex(handsOver)
  if (index < 0 || index === calls.length - 1) return { run: [...calls], skipped: [] }
  return {
    run: calls.slice(0, index + 1),
    skipped: calls.slice(index + 1).map((call) => ({ call, error: NEW_TASK_ISOLATION_ERROR }))
  }
}
