import { z } from 'zod'
import {
  BrowserViewport,
  EmbeddingsKind,
  HttpUrl,
  ProviderKind,
  ThemePreference
} from '../../../shared/contract/settings'

export const ProviderConfig = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'lowercase letters, digits and dashes'),
    kind: ProviderKind,
    label: z.string().min(1),
    baseUrl: HttpUrl.optional(),
    model: z.string().min(1),
    /** The user's word on image input for a model the table does not know (Ollama, LM Studio…). */
    acceptsImages: z.boolean().optional()
  })
  .strict()
export type ProviderConfig = z.infer<typeof ProviderConfig>

const CommandRules = z
  .object({
    allow: z.array(z.string().min(1)).default([]),
    ask: z.array(z.string().min(1)).default([]),
    deny: z.array(z.string().min(1)).default([])
  })
  .strict()

/** Global defaults of the policy; a mode may override the caps. */
export const GlobalPolicy = z
  .object({
    /** Consecutive mistakes before the loop pauses for guidance; 0 = off. */
    mistakeLimit: z.number().int().min(0).default(3),
    /** Identical consecutive calls allowed before the next one asks; 0 = off. */
    repetitionLimit: z.number().int().min(0).default(3),
    /** Model requests per task before the loop pauses and asks; null = no cap. */
    maxRequests: z.number().int().positive().nullable().default(null),
    /** Cost per task (USD) before the loop pauses and asks; null = no cap. */
    maxCostUsd: z.number().positive().nullable().default(null),
    /** Seconds after which a running command is killed, whatever the model asked; null = no limit. */
    commandHardLimitSec: z.number().int().positive().nullable().default(null),
    commandRules: CommandRules.default({ allow: [], ask: [], deny: [] })
  })
  .strict()
export type GlobalPolicy = z.infer<typeof GlobalPolicy>

/** The embeddings endpoint of codebase_search (its key is in the secret store). */
export const EmbeddingsConfig = z
  .object({
    kind: EmbeddingsKind,
    baseUrl: HttpUrl.optional(),
    model: z.string().min(1),
    dimensions: z.number().int().positive().optional()
  })
  .strict()
export type EmbeddingsConfig = z.infer<typeof EmbeddingsConfig>

/** Checkpoints: what a command snapshot captures, and how much space a workspace's history may use. */
export const CheckpointSettings = z
  .object({
    /** Files larger than this (MB) are not captured by command snapshots; they are listed instead. */
    maxFileMb: z.number().positive().max(1024).default(5),
    /** Space (MB) a workspace's checkpoints may use; the oldest tasks' history goes first. */
    workspaceCapMb: z.number().positive().default(2048)
  })
  .strict()
export type CheckpointSettings = z.infer<typeof CheckpointSettings>

/** The browser tool: the page size a launch opens with (the model may resize it). */
export const BrowserSettings = z.object({ viewport: BrowserViewport.default({ width: 900, height: 600 }) }).strict()
export type BrowserSettings = z.infer<typeof BrowserSettings>

/** MCP: how many tokens of tool schemas a mode sends up front before they go on demand. */
export const McpSettings = z.object({ schemaTokenBudget: z.number().int().min(0).default(2000) }).strict()
export type McpSettings = z.infer<typeof McpSettings>

/** The code index: built when a workspace opens, unless it holds more files than the limit (then on the first search or Rebuild). */
export const CodeIndexSettings = z
  .object({ autoStart: z.boolean().default(true), autoStartMaxFiles: z.number().int().min(0).default(20_000) })
  .strict()
export type CodeIndexSettings = z.infer<typeof CodeIndexSettings>

export const SettingsFile = z
  .object({
    version: z.literal(1).default(1),
    providers: z.array(ProviderConfig).default([]),
    activeProviderId: z.string().nullable().default(null),
    policy: GlobalPolicy.default(GlobalPolicy.parse({})),
    theme: ThemePreference.default('system'),
    embeddings: EmbeddingsConfig.nullable().default(null),
    checkpoints: CheckpointSettings.default(CheckpointSettings.parse({})),
    browser: BrowserSettings.default(BrowserSettings.parse({})),
    mcp: McpSettings.default(McpSettings.parse({})),
    codeIndex: CodeIndexSettings.default(CodeIndexSettings.parse({}))
  })
  .strict()
  .superRefine((value, ctx) => {
    const seen = new Set<string>()
    value.providers.forEach((provider, index) => {
      if (seen.has(provider.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['providers', index, 'id'],
          message: `duplicate provider id "${provider.id}"`
        })
      }
      seen.add(provider.id)
    })
  })
export type Settings = z.infer<typeof SettingsFile>

export const defaultSettings = (): Settings => SettingsFile.parse({})
