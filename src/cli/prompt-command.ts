import { promises as fs } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { createAgentServices } from '../main/core/create-agent-services'
import { appFiles, resolveDataDir } from '../main/core/app-paths'
import { promptParts } from '../main/core/loop/prompt-preview'
import { createFileSecretStore } from '../main/core/settings/secret-store'
import { createSettingsStore } from '../main/core/settings/settings-store'
import type { PromptArgs } from './args'
import type { CliIo } from './cli-io'
import { trustAndMcp, writeMcpWarnings } from './run-command'
import { visible } from './visible'

export interface PromptReport {
  mode: string
  model: string | null
  systemTokens: number
  toolTokens: number
  totalTokens: number
  tools: string[]
  /** The MCP server tools this mode may use: their schemas' cost, the budget, and whether they go on demand. */
  mcp: { schemaTokens: number; budget: number; onDemand: boolean }
}

/** `modus prompt`: what a mode sends on every request, and what it costs in o200k tokens. */
export async function promptCommand(args: PromptArgs, io: CliIo): Promise<number> {
  const workspace = await fs.realpath(resolve(io.cwd, args.workspace)).catch(() => null)
  if (!workspace) {
    io.stderr.write(`modus: no such folder: ${resolve(io.cwd, args.workspace)}\n`)
    return 2
  }
  const dataDir = resolveDataDir({ env: io.env, platform: process.platform, home: homedir() })
  const files = appFiles(dataDir)
  // The servers' tools are part of what the mode sends: they are started to be counted.
  const { trust, mcp } = trustAndMcp(dataDir, io, args.trust)
  await mcp.open(workspace)
  await mcp.settled()
  writeMcpWarnings(mcp.snapshot(), io)
  const services = await createAgentServices({
    dataDir,
    settings: await createSettingsStore(files.settings),
    secrets: createFileSecretStore(files.secrets),
    env: io.env,
    currentWorkspace: () => workspace,
    trust,
    mcp
  })
  try {
    if (!services.gate.mode(args.mode)) {
      io.stderr.write(
        `modus: unknown mode "${args.mode}". Modes: ${services.gate
          .modes()
          .map((m) => m.slug)
          .join(', ')}\n`
      )
      return 2
    }
    // The same parts and counts as the app's system prompt view (`prompt:preview`).
    const parts = await promptParts(services.tasks.agentLoop, args.mode, workspace, args.model)
    const { system, systemTokens, toolTokens, tools, wireTools } = parts
    const rulesRead = { read: parts.rules.map((f) => f.path), files: parts.rules, skipped: parts.skipped }
    const cost = services.gate.mcpSchemaCost?.(args.mode) ?? { tokens: 0, budget: 0, onDemand: false }
    const mcpReport = { schemaTokens: cost.tokens, budget: cost.budget, onDemand: cost.onDemand }
    const report: PromptReport = {
      mode: args.mode,
      model: args.model ?? null,
      systemTokens,
      toolTokens,
      totalTokens: systemTokens + toolTokens,
      tools,
      mcp: mcpReport
    }
    if (args.json) {
      io.stdout.write(`${JSON.stringify({ ...report, system, tools: wireTools, rules: rulesRead })}\n`)
    } else {
      // The prompt quotes the project's own files (rules, modes, server tools): shown with their controls visible.
      const out = (text: string) => io.stdout.write(visible(text))
      out(
        `# System prompt (${args.mode} mode${args.model ? `, ${args.model}` : ''})\n\n${system}\n\n# Tool definitions (${tools.length})\n\n${JSON.stringify(wireTools, null, 2)}\n\n`
      )
      out(
        `# Rule files read: ${rulesRead.files.map((f) => `${f.path} (${f.tokens} tokens${f.appliesTo ? `, ${f.appliesTo}` : ''})`).join(', ') || 'none'}\n`
      )
      for (const skip of rulesRead.skipped) out(`# Rule file not read: ${skip.path} (${skip.reason})\n`)
      io.stdout.write(`# ${describeMcpCost(mcpReport)}\n`)
      io.stdout.write(`# o200k tokens: system ${systemTokens} + tools ${toolTokens} = ${report.totalTokens}\n`)
    }
    return 0
  } finally {
    await services.dispose()
    await mcp.dispose()
  }
}

function describeMcpCost(cost: PromptReport['mcp']): string {
  if (cost.schemaTokens === 0) return 'MCP tool schemas: none in this mode'
  return cost.onDemand
    ? `MCP tool schemas: ${cost.schemaTokens} tokens, over the budget of ${cost.budget}: not sent; the model finds them with search_mcp_tools and calls use_mcp_tool`
    : `MCP tool schemas: ${cost.schemaTokens} tokens, within the budget of ${cost.budget}: sent up front`
}
