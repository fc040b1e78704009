import { z } from 'zod'
import { PROVIDER_KINDS, PROVIDERS } from '../providers/descriptors'
import { request } from './define'

/** The providers of `shared/providers/descriptors.ts`. */
export const ProviderKind = z.enum(PROVIDER_KINDS)
export type ProviderKind = z.infer<typeof ProviderKind>

/** A provider endpoint: only http(s); `javascript:`, `file:` and other schemes are refused. */
export const HttpUrl = z
  .string()
  .max(2000)
  .url()
  .refine((value) => /^https?:$/i.test(new URL(value).protocol), 'The base URL must start with http:// or https://')

/** What the renderer may see of a provider: never the key itself, only whether one is stored. */
export const ProviderView = z.object({
  id: z.string(),
  kind: ProviderKind,
  label: z.string(),
  baseUrl: z.string().optional(),
  model: z.string(),
  /** Set by the user for a custom model: whether it reads images (otherwise the model table decides). */
  acceptsImages: z.boolean().optional(),
  hasKey: z.boolean(),
  /** Last four characters of the key, for recognition. */
  keyHint: z.string().optional()
})
export type ProviderView = z.infer<typeof ProviderView>

export const ProviderInput = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'lowercase letters, digits and dashes'),
    kind: ProviderKind,
    label: z.string().min(1).max(80),
    baseUrl: HttpUrl.optional(),
    model: z.string().min(1).max(200),
    /** A custom model reads images (screenshots, MCP images and the user's own are sent to it). */
    acceptsImages: z.boolean().optional(),
    /** Omitted: keep the stored key. Empty string: remove it. */
    apiKey: z.string().max(500).optional()
  })
  .strict()
export type ProviderInput = z.infer<typeof ProviderInput>

/** Global limits of the agent loop; a mode may override the caps. 0 turns a limit off; null = no cap. */
export const LimitsInput = z
  .object({
    /** Consecutive mistakes before the loop pauses for guidance. */
    mistakeLimit: z.number().int().min(0).max(100),
    /** Identical consecutive calls allowed before the next one asks. */
    repetitionLimit: z.number().int().min(0).max(100),
    /** Model requests per task before the loop pauses and asks. */
    maxRequests: z.number().int().positive().nullable(),
    /** Cost per task (USD) before the loop pauses and asks. */
    maxCostUsd: z.number().positive().nullable(),
    /** The user's hard limit on one command (seconds): past it the command is killed. null = none. Omitted = unchanged. */
    commandHardLimitSec: z.number().int().positive().max(86_400).nullable().optional()
  })
  .strict()
export type LimitsInput = z.infer<typeof LimitsInput>

/** Command rules for every mode (a mode adds its own). Deny beats ask beats allow. */
export const GlobalCommandRules = z
  .object({
    allow: z.array(z.string().trim().min(1).max(500)).max(500),
    ask: z.array(z.string().trim().min(1).max(500)).max(500),
    deny: z.array(z.string().trim().min(1).max(500)).max(500)
  })
  .strict()
export type GlobalCommandRules = z.infer<typeof GlobalCommandRules>

/** The endpoint codebase_search embeds chunks with: OpenAI, or any OpenAI-compatible `/v1/embeddings`. */
export const EmbeddingsKind = z.enum(['openai', 'openai-compatible'])
export type EmbeddingsKind = z.infer<typeof EmbeddingsKind>

export const EmbeddingsInput = z
  .object({
    kind: EmbeddingsKind,
    /** Up to `/v1` (Ollama: http://localhost:11434/v1). Required for openai-compatible. */
    baseUrl: HttpUrl.optional(),
    model: z.string().trim().min(1).max(200),
    /** Vector size asked of models that can shorten them (OpenAI text-embedding-3-*). */
    dimensions: z.number().int().positive().max(10_000).optional(),
    /** Omitted: keep the stored key. Empty string: remove it. */
    apiKey: z.string().max(500).optional()
  })
  .strict()
  .refine((e) => PROVIDERS[e.kind].defaultBaseUrl !== null || !!e.baseUrl, {
    message: 'An OpenAI-compatible endpoint needs its base URL',
    path: ['baseUrl']
  })
export type EmbeddingsInput = z.infer<typeof EmbeddingsInput>

export const EmbeddingsView = z.object({
  kind: EmbeddingsKind,
  baseUrl: z.string().optional(),
  model: z.string(),
  dimensions: z.number().optional(),
  hasKey: z.boolean()
})
export type EmbeddingsView = z.infer<typeof EmbeddingsView>

/** The browser tool's page size (CSS pixels), within what a screenshot can sensibly carry. */
export const BrowserViewport = z
  .object({
    width: z.number().int().min(200).max(3840),
    height: z.number().int().min(200).max(2160)
  })
  .strict()
export type BrowserViewport = z.infer<typeof BrowserViewport>

export const BrowserSettingsInput = z.object({ viewport: BrowserViewport }).strict()
export type BrowserSettingsInput = z.infer<typeof BrowserSettingsInput>

/** The browser tool's settings and which Chromium it would drive (or how to get one). */
export const BrowserSettingsView = z.object({
  viewport: BrowserViewport,
  chromium: z.union([
    z.object({ found: z.literal(true), path: z.string(), source: z.string() }),
    z.object({ found: z.literal(false), advice: z.string() })
  ])
})
export type BrowserSettingsView = z.infer<typeof BrowserSettingsView>

/** MCP tools: past this many tokens of schemas in a mode, schemas are found and loaded on demand. */
export const McpSettingsInput = z.object({ schemaTokenBudget: z.number().int().min(0).max(1_000_000) }).strict()
export type McpSettingsInput = z.infer<typeof McpSettingsInput>
/** Asks the provider which models it offers: the draft's key if typed, else the stored provider's key. */
export const ListModelsInput = z
  .object({
    kind: ProviderKind,
    baseUrl: HttpUrl.optional(),
    /** A key typed in the form and not saved yet. */
    apiKey: z.string().max(500).optional(),
    /** The saved provider whose key to use when none is typed (only for the same kind and base URL). */
    providerId: z.string().max(100).optional()
  })
  .strict()
export type ListModelsInput = z.infer<typeof ListModelsInput>

export const ModelChoiceView = z.object({
  id: z.string(),
  displayName: z.string().optional(),
  createdAt: z.string().optional(),
  retiresOn: z.string().optional(),
  lifecycle: z.enum(['active', 'deprecated', 'retired']).optional(),
  known: z.boolean(),
  contextWindow: z.number().nullable()
})

/** `system` follows the OS (prefers-color-scheme); light and dark override it. */
export const ThemePreference = z.enum(['system', 'light', 'dark'])
export type ThemePreference = z.infer<typeof ThemePreference>

export const SettingsView = z.object({
  providers: z.array(ProviderView),
  activeProviderId: z.string().nullable(),
  limits: LimitsInput,
  commandRules: GlobalCommandRules,
  theme: ThemePreference,
  /** Semantic search's embeddings (null: codebase_search is lexical only). */
  embeddings: EmbeddingsView.nullable(),
  browser: BrowserSettingsView,
  mcp: McpSettingsInput,
  /** Problems found when loading settings files; the files themselves are kept untouched. */
  problems: z.array(z.string())
})
export type SettingsView = z.infer<typeof SettingsView>

/** The outcome of trying a provider before it is saved: its model list, or what is wrong, in words. */
export const ProviderCheck = z.object({
  ok: z.boolean(),
  /** What the user reads: "Connected: …" or what to fix. */
  message: z.string(),
  /** The field to fix when the check failed. */
  setting: z.enum(['apiKey', 'model', 'baseUrl']).optional(),
  /** Model ids the provider lists (empty when it could not be reached). */
  models: z.array(z.string())
})
export type ProviderCheck = z.infer<typeof ProviderCheck>

export const settingsRequests = {
  'settings:get': request(z.object({}).strict(), SettingsView),
  'settings:saveProvider': request(ProviderInput, SettingsView),
  /** Lists the provider's models with the given (or stored) key; nothing is saved. */
  'settings:testProvider': request(ProviderInput, ProviderCheck),
  'settings:removeProvider': request(z.object({ id: z.string() }).strict(), SettingsView),
  'settings:setActiveProvider': request(z.object({ id: z.string() }).strict(), SettingsView),
  'settings:saveLimits': request(LimitsInput, SettingsView),
  'settings:saveCommandRules': request(GlobalCommandRules, SettingsView),
  'settings:setTheme': request(z.object({ theme: ThemePreference }).strict(), SettingsView),
  /** The provider's own model list (`GET /v1/models`), with the local table's limits beside each. */
  'settings:listModels': request(ListModelsInput, z.object({ models: z.array(ModelChoiceView) })),
  /** null turns semantic search off (the stored key is removed). */
  'settings:saveEmbeddings': request(z.object({ embeddings: EmbeddingsInput.nullable() }).strict(), SettingsView),
  'settings:saveBrowser': request(BrowserSettingsInput, SettingsView),
  'settings:saveMcp': request(McpSettingsInput, SettingsView)
}

export const settingsEvents = {
  'settings:changed': SettingsView
}
