import { checkpointSavedLine, condensedLine, costFigures, totalCost } from '../shared/agent/command-rows'
import { parseSlashCommand, type BuiltinCommandName, isBuiltinCommand } from '../shared/commands/builtins'
import type { AgentServices } from '../main/core/create-agent-services'
import { UsageError } from './args'
import type { CliIo } from './cli-io'
import { visible } from './visible'

/** The built-ins that act on a task, run by `modus resume [TASK] /name`; `/new` and `/mode` are the composer's. */
const ON_A_TASK: Partial<Record<BuiltinCommandName, true>> = { condense: true, checkpoint: true, cost: true }

/** The built-in a resume message names, or null for any other text (a prompt command, a message). */
export function taskBuiltinOf(text: string): { name: BuiltinCommandName; args: string } | null {
  const parsed = parseSlashCommand(text)
  if (!parsed || !isBuiltinCommand(parsed.name)) return null
  if (!ON_A_TASK[parsed.name])
    throw new UsageError(
      `/${parsed.name} is a command of the app's composer; on a task the CLI runs /condense, /checkpoint and /cost.`
    )
  return { name: parsed.name, args: parsed.args }
}

/**
 * Runs `/condense`, `/checkpoint [label]` or `/cost` on the task through the same core calls as the
 * composer (each leaves its row in the task's chat) and prints what it did; a refusal is thrown
 * with its reason (a turn running, nothing to condense).
 */
export async function runTaskBuiltin(
  services: AgentServices,
  taskId: string,
  command: { name: BuiltinCommandName; args: string },
  io: CliIo
): Promise<void> {
  const say = (line: string) => io.stdout.write(`${visible(line)}\n`)
  if (command.name === 'condense') {
    say(`${condensedLine(await services.tasks.condense(taskId))}.`)
    return
  }
  if (command.name === 'checkpoint') {
    const saved = await services.tasks.checkpoint(taskId, command.args || undefined)
    say(`${checkpointSavedLine(saved.changedSinceLast)} (${saved.checkpointId.slice(0, 8)}: ${saved.label}).`)
    return
  }
  const models = await services.tasks.cost(taskId)
  if (models.length === 0) {
    say('No model requests in this task yet: no tokens, no cost.')
    return
  }
  for (const model of models) say(`${model.model}: ${costFigures(model)}`)
  if (models.length > 1) say(`Total: ${costFigures(totalCost(models))}`)
}
