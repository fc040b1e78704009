import { defaultModelId, OPENAI_COMPATIBLE_PRESETS, type ModelProviderFamily } from '../models'

/**
 * Every model provider Modus knows, as data. Adding a provider is one entry here (and its models in
 * the model table, for prices and suggestions); everything else — the settings form, the CLI, key
 * lookup, base URLs, model lists, the request adapter — reads these fields. A kind with no entry
 * does not compile.
 */
export const PROVIDER_KINDS = ['anthropic', 'openai', 'openai-compatible', 'gemini'] as const
export type ProviderKind = (typeof PROVIDER_KINDS)[number]

/** The HTTP API a provider speaks; each has one adapter in the core (`core/providers/wire-adapters.ts`). */
export type WireProtocol = 'anthropic' | 'openai'

export interface ServerPreset {
  readonly id: string
  readonly label: string
  readonly baseUrl: string
  readonly needsKey: boolean
}

export interface ProviderDescriptor {
  /** Short name: the settings list, the provider's default name. */
  readonly label: string
  /** The settings form's choice, with what it covers when that is not obvious. */
  readonly choiceLabel: string
  /** How errors name it when the user gave it no name ("… rejected the key"). */
  readonly nameInMessages: string
  readonly wire: WireProtocol
  /** The provider's own key variable; null: none (a compatible server's key is typed in settings). */
  readonly envKey: string | null
  /** The base-URL variable the provider's SDK honours (a proxy or gateway); null: none applies. */
  readonly baseUrlEnv: string | null
  /** The official endpoint; null: the user must give one. Its host is the only one the env key may reach. */
  readonly defaultBaseUrl: string | null
  /** Shown in an empty base URL field. */
  readonly baseUrlExample: string
  /** Requests refuse to go out without a key (local compatible servers often need none). */
  readonly needsKey: boolean
  /** A new provider's model; null: the user names it (what a compatible server runs is unknown). */
  readonly defaultModel: string | null
  /** Which models of the table the settings suggest. */
  readonly suggestFrom: ModelProviderFamily
  /** The model list (`GET …/models`): a prefix its ids carry that requests do not use. */
  readonly modelList: { readonly idPrefix: string }
  /** What the wire adapter must send differently. */
  readonly capabilities: {
    /** OpenAI wire: `max_completion_tokens` (OpenAI's reasoning models require it) or `max_tokens`. */
    readonly maxTokensField: 'max_completion_tokens' | 'max_tokens'
    /** OpenAI wire: `stream_options.include_usage`. */
    readonly streamUsage: boolean
  }
  /** Common servers offered as one-click base URLs. */
  readonly presets: readonly ServerPreset[]
}

const OPENAI_WIRE_DEFAULTS = { maxTokensField: 'max_tokens', streamUsage: true } as const

export const PROVIDERS: Readonly<Record<ProviderKind, ProviderDescriptor>> = {
  anthropic: {
    label: 'Anthropic',
    choiceLabel: 'Anthropic',
    nameInMessages: 'Anthropic',
    wire: 'anthropic',
    envKey: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com',
    baseUrlExample: 'default',
    needsKey: true,
    defaultModel: defaultModelId('anthropic'),
    suggestFrom: 'anthropic',
    modelList: { idPrefix: '' },
    capabilities: OPENAI_WIRE_DEFAULTS,
    presets: []
  },
  openai: {
    label: 'OpenAI',
    choiceLabel: 'OpenAI',
    nameInMessages: 'OpenAI',
    wire: 'openai',
    envKey: 'OPENAI_API_KEY',
    baseUrlEnv: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    baseUrlExample: 'default',
    needsKey: true,
    defaultModel: defaultModelId('openai'),
    suggestFrom: 'openai',
    modelList: { idPrefix: '' },
    capabilities: { maxTokensField: 'max_completion_tokens', streamUsage: true },
    presets: []
  },
  'openai-compatible': {
    label: 'OpenAI-compatible',
    choiceLabel: 'OpenAI-compatible (Ollama, LM Studio, OpenRouter, vLLM…)',
    nameInMessages: 'The OpenAI-compatible endpoint',
    wire: 'openai',
    envKey: null,
    baseUrlEnv: 'OPENAI_BASE_URL',
    defaultBaseUrl: null,
    baseUrlExample: 'http://localhost:11434/v1',
    needsKey: false,
    defaultModel: null,
    suggestFrom: 'openai',
    modelList: { idPrefix: '' },
    capabilities: OPENAI_WIRE_DEFAULTS,
    presets: OPENAI_COMPATIBLE_PRESETS
  },
  // Gemini through Google's OpenAI-compatible endpoint: the OpenAI SDK, Google's key and URL.
  gemini: {
    label: 'Google Gemini',
    choiceLabel: 'Google Gemini',
    nameInMessages: 'Google Gemini',
    wire: 'openai',
    envKey: 'GEMINI_API_KEY',
    // OPENAI_BASE_URL is meant for OpenAI's API; following it would send the Gemini key there.
    baseUrlEnv: null,
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    baseUrlExample: 'default',
    needsKey: true,
    defaultModel: defaultModelId('google'),
    suggestFrom: 'google',
    // Its list names models `models/gemini-2.5-flash`; requests name them `gemini-2.5-flash`.
    modelList: { idPrefix: 'models/' },
    capabilities: OPENAI_WIRE_DEFAULTS,
    presets: []
  }
}

/** A provider's base URL is required when it has no official endpoint. */
export const needsBaseUrl = (kind: ProviderKind): boolean => PROVIDERS[kind].defaultBaseUrl === null

/** The environment's key variables, for messages that list them. */
export const PROVIDER_ENV_KEYS: readonly string[] = PROVIDER_KINDS.flatMap((kind) => PROVIDERS[kind].envKey ?? [])
