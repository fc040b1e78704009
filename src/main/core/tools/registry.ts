import { resolveToolAlias } from '../../../shared/tools/catalog'
import type { ToolDefinition } from '../../../shared/tools/types'
import type { BuiltInExecutors } from './executors'
import type { AnyToolExecutor } from '../ports/tool-types'

/** A tool known only at run time (an MCP server's tool, a custom tool): its definition and executor. */
export interface RuntimeTool {
  definition: ToolDefinition
  executor: AnyToolExecutor
}

/** Every executor by tool name: the built-in table plus the tools registered at run time. */
export interface ToolRegistry {
  executor(name: string): AnyToolExecutor | undefined
  /** Definitions registered at run time, offered and validated like built-ins. */
  runtimeDefinitions(): readonly ToolDefinition[]
  /** Sets the tools of one source (e.g. an MCP server), replacing its earlier ones; returns their removal. */
  register(source: string, tools: readonly RuntimeTool[]): () => void
}

export function createToolRegistry(builtIns: BuiltInExecutors): ToolRegistry {
  const table = builtIns as unknown as Readonly<Record<string, AnyToolExecutor>>
  const bySource = new Map<string, readonly RuntimeTool[]>()
  let runtime = new Map<string, RuntimeTool>()
  const rebuild = () => {
    runtime = new Map([...bySource.values()].flat().map((tool) => [tool.definition.name, tool]))
  }
  return {
    executor(name) {
      const builtInName = resolveToolAlias(name)
      return Object.hasOwn(table, builtInName) ? table[builtInName] : runtime.get(name)?.executor
    },
    runtimeDefinitions: () => [...runtime.values()].map((tool) => tool.definition),
    register(source, tools) {
      for (const { definition } of tools) {
        if (Object.hasOwn(table, resolveToolAlias(definition.name)))
          throw new Error(`"${definition.name}" is a built-in tool name.`)
        const owner = [...bySource].find(
          ([other, list]) => other !== source && list.some((t) => t.definition.name === definition.name)
        )
        if (owner) throw new Error(`The tool "${definition.name}" is already registered by ${owner[0]}.`)
      }
      const registered = [...tools]
      bySource.set(source, registered)
      rebuild()
      return () => {
        // A later registration of the same source replaced these: leave it in place.
        if (bySource.get(source) !== registered) return
        bySource.delete(source)
        rebuild()
      }
    }
  }
}
