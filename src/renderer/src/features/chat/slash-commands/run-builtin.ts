import { formatCost } from '../TaskBar'
import type { TaskView } from '../../../common/chat/task-view'

export interface BuiltinContext {
  modes: readonly string[]
  view: TaskView | undefined
  startNewTask(): void
  setMode(slug: string): void
}

/**
 * A built-in command run in the app; returns the line to show (a confirmation, the cost, or why
 * it could not run). The message field is cleared after it either way.
 */
export function runBuiltin(name: string, args: string, context: BuiltinContext): string {
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
  if (name === 'cost') return costLine(context.view)
  return `/${name} is not a command of this app.`
}

function costLine(view: TaskView | undefined): string {
  const usage = view?.usage
  if (!usage) return 'No model requests in this task yet: no tokens, no cost.'
  const tokens = `${usage.inputTokens.toLocaleString()} in, ${usage.outputTokens.toLocaleString()} out, ${usage.cacheReadTokens.toLocaleString()} cache read`
  const requests = `${usage.requests} request${usage.requests === 1 ? '' : 's'}`
  return `This task: ${requests}, tokens ${tokens}; ${formatCost(usage.costUsd)}.`
}
