import { z } from 'zod'
import { lookupTable } from '../lookup-table'

/** The moments a hook can run at, named as Claude Code names them so its users' files read the same. */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop'] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

export const DEFAULT_HOOK_TIMEOUT_SEC = 30
export const MAX_HOOK_TIMEOUT_SEC = 600

export const HookConfig = z
  .object({
    /** What the approval's "why" and the reports call it; default: the command. */
    name: z.string().trim().min(1).max(80).optional(),
    /**
     * Which tools (PreToolUse, PostToolUse): a regular expression matched against the whole tool
     * name, Modus's (`execute_command`) or Claude Code's (`Bash`); empty or `*` = every tool.
     */
    matcher: z.string().max(500).optional(),
    /** Only in these modes (slugs); absent = every mode. */
    modes: z.array(z.string().min(1)).optional(),
    /** Run with `/bin/sh -c` in the workspace folder, as Claude Code runs its hooks. */
    command: z.string().trim().min(1),
    /** Seconds before the hook counts as hung and is stopped. */
    timeout: z.number().positive().max(MAX_HOOK_TIMEOUT_SEC).optional()
  })
  .strict()
export type HookConfig = z.infer<typeof HookConfig>

export const HooksFile = z
  .object({
    hooks: z
      .object({
        PreToolUse: z.array(HookConfig).optional(),
        PostToolUse: z.array(HookConfig).optional(),
        UserPromptSubmit: z.array(HookConfig).optional(),
        Stop: z.array(HookConfig).optional()
      })
      .strict()
      .default({})
  })
  .strict()
export type HooksFile = z.infer<typeof HooksFile>

export type HookOrigin = 'global' | 'project'

/** One hook as loaded: where it comes from, and the event it runs at. */
export interface LoadedHook extends HookConfig {
  event: HookEvent
  origin: HookOrigin
  /** The file it was read from, for reports. */
  file: string
}

/** The name a hook is shown by: its own, else its command (shortened). */
export const hookName = (hook: Pick<HookConfig, 'name' | 'command'>): string =>
  hook.name ?? (hook.command.length > 60 ? `${hook.command.slice(0, 59)}…` : hook.command)

/** Every hook of a parsed file, flattened in the file's order. */
export function hooksOf(file: HooksFile, origin: HookOrigin, path: string): LoadedHook[] {
  return HOOK_EVENTS.flatMap((event) =>
    (file.hooks[event] ?? []).map((hook) => ({ ...hook, event, origin, file: path }))
  )
}

/**
 * Claude Code's names for the tools Modus also has: a matcher written for Claude Code (`Bash`,
 * `Edit|Write`) matches the same tools here, and an imported file works unchanged.
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = lookupTable({
  execute_command: ['Bash'],
  read_file: ['Read'],
  write_to_file: ['Write'],
  apply_diff: ['Edit', 'MultiEdit'],
  edit: ['Edit', 'MultiEdit'],
  apply_patch: ['Edit', 'MultiEdit'],
  list_files: ['Glob', 'LS'],
  search_files: ['Grep'],
  browser_action: ['WebFetch'],
  new_task: ['Task'],
  update_todo_list: ['TodoWrite']
})

/** The names a tool answers to in matchers: its own and Claude Code's (`mcp--s--t` also as `mcp__s__t`). */
export function toolNamesFor(tool: string): string[] {
  const names = [tool, ...(CLAUDE_TOOL_NAMES[tool] ?? [])]
  if (tool.startsWith('mcp--')) names.push(tool.replace(/--/g, '__'))
  return names
}

/** A matcher as a whole-name regular expression, or why it is not one. */
export function compileMatcher(
  matcher: string | undefined
): { ok: true; test: (tool: string) => boolean } | { ok: false; error: string } {
  const text = matcher?.trim() ?? ''
  if (text === '' || text === '*') return { ok: true, test: () => true }
  try {
    const pattern = new RegExp(`^(?:${text})$`)
    return { ok: true, test: (tool) => toolNamesFor(tool).some((name) => pattern.test(name)) }
  } catch (error) {
    return {
      ok: false,
      error: `matcher "${text}" is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`
    }
  }
}

/** Whether a hook runs for this call (tool events) or this prompt (the others): its mode list, then its matcher. */
export function hookApplies(hook: LoadedHook, mode: string, tool?: string): boolean {
  if (hook.modes && !hook.modes.includes(mode)) return false
  if (tool === undefined) return true
  const matcher = compileMatcher(hook.matcher)
  // An invalid matcher is reported when the file loads; the hook then runs for every tool (it fails closed to more checks, not fewer).
  return matcher.ok ? matcher.test(tool) : true
}

/** The trust prompt's line for one project hook: what program it runs, and when. */
export function hookGrant(hook: Pick<LoadedHook, 'event' | 'command' | 'matcher' | 'modes'>): string {
  const tools =
    hook.event === 'PreToolUse' || hook.event === 'PostToolUse'
      ? ` for tools matching \`${hook.matcher?.trim() || '*'}\``
      : ''
  const modes = hook.modes ? ` in modes ${hook.modes.join(', ')}` : ''
  return `Hook ${hook.event} runs \`${hook.command}\`${tools}${modes}`
}
