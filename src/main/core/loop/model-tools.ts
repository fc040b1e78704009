import { canonicalModelId } from '../../../shared/models'

export interface ModelToolPreferences {
  includedTools?: string[]
  excludedTools?: string[]
}

/**
 * Per-model tool customisation, as Roo does for the models it knows: GPT/Codex models are trained
 * on the `*** Begin Patch` format, so they get apply_patch in place of apply_diff. Other models keep
 * the default set. The same lists feed the filter and the validation, so they cannot disagree.
 */
export function modelToolPreferences(model: string | undefined): ModelToolPreferences {
  if (!model) return {}
  const id = canonicalModelId(model)
  if (/^(gpt-|o\d|codex)/.test(id)) return { includedTools: ['apply_patch'], excludedTools: ['apply_diff'] }
  return {}
}
