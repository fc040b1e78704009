import { z } from 'zod'
import { request } from './define'

export const RuleFileReport = z.object({
  path: z.string(),
  /** o200k tokens of the file as the model reads it (heading and "apply only" line included). */
  tokens: z.number().int(),
  appliesTo: z.string().optional()
})
export type RuleFileReport = z.infer<typeof RuleFileReport>

export const PromptPreview = z.object({
  mode: z.string(),
  /** The system prompt the mode sends on every request, as sent. */
  system: z.string(),
  systemTokens: z.number().int(),
  toolTokens: z.number().int(),
  tools: z.array(z.string()),
  /** The project's rule files included in the prompt, in order. */
  rules: z.array(RuleFileReport),
  /** Rule files found but not read, and why. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() }))
})
export type PromptPreview = z.infer<typeof PromptPreview>

export const promptRequests = {
  /** What a mode would send in the open workspace (the app's view of `modus prompt`). */
  'prompt:preview': request(z.object({ mode: z.string().min(1).max(200) }).strict(), PromptPreview)
}
