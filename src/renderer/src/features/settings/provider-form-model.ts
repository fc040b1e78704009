import type { ProviderInput, ProviderKind, ProviderView } from '../../../../shared/contract/settings'
import { needsBaseUrl, PROVIDER_KINDS, PROVIDERS } from '../../../../shared/providers/descriptors'

/** The form's provider choices, in the descriptors' order. */
export const KIND_CHOICES: ReadonlyArray<{ kind: ProviderKind; label: string }> = PROVIDER_KINDS.map((kind) => ({
  kind,
  label: PROVIDERS[kind].choiceLabel
}))

/** A new provider's model when its kind is chosen ('' where the user must name it). */
export const defaultModelFor = (kind: ProviderKind): string => PROVIDERS[kind].defaultModel ?? ''

export interface ProviderDraft {
  kind: ProviderKind
  label: string
  baseUrl: string
  model: string
  /** A custom model reads images (offered for OpenAI-compatible servers, whose models the table does not know). */
  acceptsImages: boolean
  /** Typed by the user; empty means "keep the stored key". */
  apiKey: string
}

export const draftFor = (provider?: ProviderView): ProviderDraft =>
  provider
    ? {
        kind: provider.kind,
        label: provider.label,
        baseUrl: provider.baseUrl ?? '',
        model: provider.model,
        acceptsImages: provider.acceptsImages ?? false,
        apiKey: ''
      }
    : {
        kind: 'anthropic',
        label: '',
        baseUrl: '',
        model: defaultModelFor('anthropic'),
        acceptsImages: false,
        apiKey: ''
      }

export const shortKindLabel = (kind: ProviderKind): string => PROVIDERS[kind].label

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
    ...(draft.kind === 'openai-compatible' ? { acceptsImages: draft.acceptsImages } : {}),
    ...(draft.apiKey ? { apiKey: draft.apiKey } : {})
  }
}

/** Problems the user can fix before anything is sent; keyed by field. */
export function checkDraft(draft: ProviderDraft): Partial<Record<keyof ProviderDraft, string>> {
  const problems: Partial<Record<keyof ProviderDraft, string>> = {}
  if (!draft.model.trim()) problems.model = 'A model is required.'
  if (needsBaseUrl(draft.kind) && !draft.baseUrl.trim())
    problems.baseUrl = `${PROVIDERS[draft.kind].nameInMessages} needs its base URL.`
  if (draft.baseUrl.trim()) {
    try {
      const url = new URL(draft.baseUrl.trim())
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        problems.baseUrl = 'The base URL must start with http:// or https://.'
    } catch {
      problems.baseUrl = 'This is not a valid URL.'
    }
  }
  return problems
}
