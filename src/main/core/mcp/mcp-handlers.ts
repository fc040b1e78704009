import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { McpConfigWriteError } from './config'
import type { McpHub } from './hub'

type McpChannels = 'mcp:list' | 'mcp:restart' | 'mcp:saveServer' | 'mcp:removeServer' | 'mcp:setTool'

/** The MCP view's requests: list, restart, and edits written to the server's own config file. */
export function createMcpHandlers(hub: McpHub): Pick<Handlers, McpChannels> {
  const after = async (change: () => Promise<void>) => {
    try {
      await change()
    } catch (error) {
      if (error instanceof McpConfigWriteError) throw new UserFacingError('mcp_config', error.message)
      throw new UserFacingError('mcp', error instanceof Error ? error.message : String(error))
    }
    return hub.snapshot()
  }
  return {
    'mcp:list': async () => hub.snapshot(),
    'mcp:restart': ({ server }) => after(() => hub.restart(server)),
    'mcp:saveServer': ({ scope, name, entry, previousName }) =>
      after(() => hub.saveServer(scope, name, entry, previousName)),
    'mcp:removeServer': ({ scope, name }) => after(() => hub.removeServer(scope, name)),
    'mcp:setTool': ({ server, tool, enabled, alwaysAllow }) =>
      after(() => hub.setTool(server, tool, { enabled, alwaysAllow }))
  }
}
