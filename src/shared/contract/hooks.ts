import { z } from 'zod'
import { request } from './define'
import { compileMatcher, HOOK_EVENTS, HookConfig } from '../hooks/schema'

/**
 * Hooks: the user's own programs run around tool calls and messages. The global file (in the app
 * data dir) is the user's and is edited here; the project's `.modus/hooks.yaml` is shown with its
 * trust state and edited only by hand; Claude Code's hooks are imported into the global file.
 */

/** One hook with the event it runs at, as listed and as saved. */
export const HookEntry = HookConfig.extend({ event: z.enum(HOOK_EVENTS) })
export type HookEntry = z.infer<typeof HookEntry>

/** A hook the user saves: its matcher must also be a valid regular expression. */
export const SavedHookEntry = HookEntry.superRefine((hook, context) => {
  const matcher = compileMatcher(hook.matcher)
  if (!matcher.ok) context.addIssue({ code: 'custom', path: ['matcher'], message: matcher.error })
})

export const HooksSource = z.object({
  /** The file the hooks are read from. */
  file: z.string(),
  hooks: z.array(HookEntry),
  /** Why the file (or a hook in it) cannot be used as written; its tool calls then ask. */
  problems: z.array(z.string())
})
export type HooksSource = z.infer<typeof HooksSource>

export const ProjectHooks = HooksSource.extend({
  /** Whether the project's hooks run now: the user trusted the folder having seen these hooks. */
  inForce: z.boolean(),
  /** Whether the folder is trusted at all (trusted, yet not in force: its hooks changed since). */
  folderTrusted: z.boolean()
})
export type ProjectHooks = z.infer<typeof ProjectHooks>

export const HooksListing = z.object({
  global: HooksSource,
  /** null while no folder is open. */
  project: ProjectHooks.nullable()
})
export type HooksListing = z.infer<typeof HooksListing>

/** One Claude Code settings file, read for an import and not applied: what it would add, what it would not. */
export const ClaudeHooksSource = z.object({
  scope: z.enum(['project', 'user']),
  file: z.string(),
  found: z.boolean(),
  hooks: z.array(HookEntry),
  /** Hooks that would not be imported, with why. */
  skipped: z.array(z.string()),
  /** The file exists but cannot be read as Claude Code settings. */
  error: z.string().optional()
})
export type ClaudeHooksSource = z.infer<typeof ClaudeHooksSource>

const MAX_HOOKS = 200

export const hooksRequests = {
  'hooks:list': request(z.object({}).strict(), HooksListing),
  /** Replaces the user's global hooks with this list (the Settings section's one Save). */
  'hooks:saveGlobal': request(z.object({ hooks: z.array(SavedHookEntry).max(MAX_HOOKS) }).strict(), HooksListing),
  /** Reads `.claude/settings.json` of the open folder and of the user's home: what an import would add. */
  'hooks:previewClaudeImport': request(z.object({}).strict(), z.object({ sources: z.array(ClaudeHooksSource) })),
  /**
   * Adds the hooks the user saw in the preview and confirmed to their global hooks (an import is the
   * user's own grant). Hooks already there (same event, command and matcher) are not added twice.
   */
  'hooks:importClaude': request(
    z.object({ hooks: z.array(SavedHookEntry).min(1).max(MAX_HOOKS) }).strict(),
    z.object({ added: z.number().int(), listing: HooksListing })
  )
}
