import type { ModusClient } from '../../../../../shared/contract'
import { unwrap } from '../../../client/unwrap'

export interface BuiltinContext {
  client: ModusClient
  modes: readonly string[]
  /** The task the chat shows; null on a new task's empty chat. */
  taskId: string | null
  startNewTask(): void
  setMode(slug: string): void
}

/** The built-ins that act on the open task (through the core); the others act in the composer. */
const ON_A_TASK = new Set(['condense', 'checkpoint', 'cost'])
/** Of those, the ones that change the conversation or the files: only between turns. */
const BETWEEN_TURNS = new Set(['condense', 'checkpoint'])

/**
 * Why a built-in cannot run now, or null when it can: shown in the menu beside it, and said instead
 * of running. The core says the same when it refuses (a turn started meanwhile).
 */
export function unavailableReason(name: string, state: { taskId: string | null; busy: boolean }): string | null {
  if (ON_A_TASK.has(name) && !state.taskId) return `No task is open: /${name} works on a task's conversation.`
  if (BETWEEN_TURNS.has(name) && state.busy)
    return `The task is running or waiting for you: /${name} works between turns (wait, or cancel it).`
  return null
}

/**
 * A built-in command run in the app. Returns the line to show under the composer, or null when the
 * chat shows what happened (the rows of /condense, /checkpoint and /cost). A refusal of the core is
 * thrown with its reason.
 */
export async function runBuiltin(
  name: string,
  args: string,
  context: BuiltinContext & { busy: boolean }
): Promise<string | null> {
  const reason = unavailableReason(name, context)
  if (reason) return reason
  const { client, taskId } = context
  if (name === 'new') {
    context.startNewTask()
    return 'Started a new task.'
  }
  if (name === 'mode') {
    if (!args) return `Name a mode: /mode ${context.modes.join(' | ')}`
    if (!context.modes.includes(args)) return `Unknown mode "${args}". Available: ${context.modes.join(', ')}.`
    context.setMode(args)
    return `The next message goes in mode ${args}.`
  }
  if (!taskId) return null
  if (name === 'condense') unwrap(await client.request('task:condense', { taskId }))
  else if (name === 'checkpoint')
    unwrap(await client.request('checkpoints:create', { taskId, ...(args ? { label: args } : {}) }))
  else if (name === 'cost') unwrap(await client.request('task:cost', { taskId }))
  else return `/${name} is not a command of this app.`
  return null
}
