import type { ModusClient } from '../../../../../shared/contract'
import type { CommandView } from '../../../../../shared/contract/commands'
import { unwrap } from '../../../client/unwrap'
import { useChatStore } from '../../../common/chat/chat-store'
import { runBuiltin } from './run-builtin'

/** A built-in runs here and leaves a line to show; a prompt command becomes the message to send. */
export async function runSlashCommand(
  client: ModusClient,
  invoked: { command: CommandView; args: string },
  modes: readonly string[]
): Promise<{ note: string } | { note?: undefined; prompt: string }> {
  const { command, args } = invoked
  if (command.source === 'builtin') {
    const store = useChatStore.getState()
    const view = store.activeTaskId ? store.views[store.activeTaskId] : undefined
    return {
      note: runBuiltin(command.name, args, {
        modes,
        view,
        startNewTask: () => store.startNewTask(),
        setMode: (slug) => store.setComposerMode(slug)
      })
    }
  }
  return { prompt: unwrap(await client.request('commands:expand', { name: command.name, args })).text }
}
