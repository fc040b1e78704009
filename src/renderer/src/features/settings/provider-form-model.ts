import { defaultModelId } from '../../../../shared/models/lookup'
import type { ProviderInput, ProviderKind, ProviderView } from '../../../../shared/contract/settings'

export const KIND_LABELS: Record<ProviderKind, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, OpenRouter, vLLM…)'
}

export const DEFAULT_MODELS: Record<ProviderKind, string> = {
  anthropic: defaultModelId('anthropic'),
  openai: defaultModelId('openai'),
  'openai-compatible': ''
}

export interface ProviderDraft {
  kind: ProviderKind
  label: string
  baseUrl: string
  model: string
  /** Typed by the user; empty means "keep the stored key". */
  apiKey: string
}

export const draftFor = (provider?: ProviderView): ProviderDraft =>
  provider
    ? { kind: provider.kind, label: provider.label, baseUrl: provider.baseUrl ?? '', model: provider.model, apiKey: '' }
    : { kind: 'anthropic', label: '', baseUrl: '', model: DEFAULT_MODELS.anthropic, apiKey: '' }

export const shortKindLabel = (kind: ProviderKind): string => KIND_LABELS[kind].split(' (')[0]

/** A provider id from its name: lowercase words joined by dashes, made unique among the existing ids. */
export function providerIdFor(label: string, taken: readonly string[]): string {
  const base =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32) || 'provider'
  let id = base
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`
  return id
}

/** What is sent to the core. A blank key field keeps the stored key; the key is never read back. */
export function toProviderInput(draft: ProviderDraft, id: string): ProviderInput {
  const label = draft.label.trim() || shortKindLabel(draft.kind)
  return {
    id,
    kind: draft.kind,
    label,
    model: draft.model.trim(),
    ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}),
    ...(draft.apiKey ? { apiKey: draft.apiKey } : {})
  }
}

/** Problems the user can fix before anything is sent; keyed by field. */
export function checkDraft(draft: ProviderDraft): Partial<Record<keyof ProviderDraft, string>> {
  const problems: Partial<Record<keyof ProviderDraft, string>> = {}
  if (!draft.model.trim()) problems.model = 'A model is required.'
  if (draft.kind === 'openai-compatible' && !draft.baseUrl.trim())
    problems.baseUrl = 'An OpenAI-compatible provider needs its base URL.'
  if (draft.baseUrl.trim()) {
    try {
      const url = new URL(draft.baseUrl.trim())
      if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.baseUrl = 'The base URL must start with http:// or https://.'
    } catch {
      problems.baseUrl = 'This is not a valid URL.'
    }
  }
  return problems
}
