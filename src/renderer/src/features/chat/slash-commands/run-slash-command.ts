import type { ModusClient } from '../../../../../shared/contract'
import type { CommandView } from '../../../../../shared/contract/commands'
import { unwrap } from '../../../client/unwrap'
import { useChatStore } from '../../../common/chat/chat-store'
import { runBuiltin } from './run-builtin'

/**
 * A built-in runs here and leaves a line to show (null when its row in the chat says it); a prompt
 * command becomes the message to send.
 */
export async function runSlashCommand(
  client: ModusClient,
  invoked: { command: CommandView; args: string },
  modes: readonly string[],
  busy: boolean
): Promise<{ note: string | null } | { note?: undefined; prompt: string }> {
  const { command, args } = invoked
  if (command.source === 'builtin') {
    const store = useChatStore.getState()
    return {
      note: await runBuiltin(command.name, args, {
        client,
        modes,
        taskId: store.activeTaskId,
        busy,
        startNewTask: () => store.startNewTask(),
        setMode: (slug) => store.setComposerMode(slug)
      })
    }
  }
  return { prompt: unwrap(await client.request('commands:expand', { name: command.name, args })).text }
}
