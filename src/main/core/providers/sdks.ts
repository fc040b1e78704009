import type AnthropicSdk from '@anthropic-ai/sdk'
import type OpenAISdk from 'openai'

export type AnthropicClass = typeof AnthropicSdk
export type OpenAIClass = typeof OpenAISdk

/**
 * The provider SDKs, each imported the first time a provider of its kind needs it: together they
 * cost every process about 170 ms at start (the CLI, the web host, the app), and a task uses one.
 * Kept per process like the module cache they come from. The error classifier reads what is
 * loaded: an SDK's error can only come from an SDK that was loaded.
 */
const loaded: { anthropic?: AnthropicClass; openai?: OpenAIClass } = {}
let anthropicImport: Promise<AnthropicClass> | undefined
let openaiImport: Promise<OpenAIClass> | undefined

export function loadAnthropicSdk(): Promise<AnthropicClass> {
  return (anthropicImport ??= import('@anthropic-ai/sdk').then((module) => (loaded.anthropic = module.default)))
}

export function loadOpenAISdk(): Promise<OpenAIClass> {
  return (openaiImport ??= import('openai').then((module) => (loaded.openai = module.default)))
}

/** The SDKs loaded so far. */
export const loadedSdks = (): Readonly<typeof loaded> => loaded
