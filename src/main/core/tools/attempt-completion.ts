import type { AttemptCompletionParams } from '../../../shared/tools/attempt-completion'
import type { TaskToolExecutor } from '../ports/tool-types'

/** Ends the turn: the result waits for the user to accept it or answer (their answer becomes the tool result). */
export const attemptCompletionExecutor: TaskToolExecutor<AttemptCompletionParams> = {
  async execute(params, { session, loop }) {
    session.counters.mistakes = 0
    session.emit({ type: 'completion', at: loop.now(), result: params.result })
    return { kind: 'completed', result: params.result }
  }
}
