import type { Handlers } from '../../../shared/contract'
import type { commandsRequests } from '../../../shared/contract/commands'
import type { CommandCatalog } from './command-catalog'

export function createCommandHandlers(catalog: CommandCatalog): Pick<Handlers, keyof typeof commandsRequests> {
  return {
    'commands:list': () => catalog.list(),
    'commands:expand': async ({ name, args }) => ({ text: await catalog.expand(name, args) })
  }
}
