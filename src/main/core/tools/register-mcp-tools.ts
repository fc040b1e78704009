import { mcpToolDefinition } from '../../../shared/tools/mcp'
import { createMcpServerToolExecutor } from './mcp-server-tool'
import type { ToolRegistry } from './registry'
import type { McpHub } from '../mcp/hub'
import type { McpPort } from '../mcp/mcp-port'

/**
 * Keeps the registry's `mcp--<server>--<tool>` tools equal to the enabled tools of the connected
 * servers: one runtime definition (the server's schema) and one executor each. Which of them a
 * mode sees is the policy gate's business (the mode's mcp group and server list).
 */
export function registerMcpTools(hub: McpHub, port: McpPort, registry: ToolRegistry): () => void {
  let signature = ''
  let unregister: () => void = () => undefined
  const sync = () => {
    const entries = hub.tools()
    const next = JSON.stringify(entries.map((entry) => [entry.exposedName, entry.description, entry.inputSchema]))
    if (next === signature) return
    signature = next
    unregister = registry.register(
      'mcp',
      entries.map((entry) => ({
        definition: mcpToolDefinition(entry),
        executor: createMcpServerToolExecutor(port, entry.exposedName)
      }))
    )
  }
  sync()
  const stop = hub.onChange(sync)
  return () => {
    stop()
    unregister()
  }
}
