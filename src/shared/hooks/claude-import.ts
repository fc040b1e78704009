import { z } from 'zod'
import { HOOK_EVENTS, MAX_HOOK_TIMEOUT_SEC, type HookConfig, type HookEvent, type HooksFile } from './schema'

/** The part of Claude Code's settings.json that holds hooks: event → [{ matcher, hooks: [{ type, command, timeout }] }]. */
const ClaudeSettings = z
  .object({
    hooks: z
      .record(
        z.string(),
        z.array(
          z
            .object({
              matcher: z.string().optional(),
              hooks: z.array(
                z
                  .object({ type: z.string(), command: z.string().optional(), timeout: z.number().optional() })
                  .passthrough()
              )
            })
            .passthrough()
        )
      )
      .optional()
  })
  .passthrough()

export interface ClaudeImport {
  file: HooksFile
  /** Hooks that were not imported, with why (an event Modus has no moment for, a prompt-type hook). */
  skipped: string[]
}

const isHookEvent = (name: string): name is HookEvent => (HOOK_EVENTS as readonly string[]).includes(name)

/**
 * Claude Code's hooks in Modus's file shape. Matchers stay as written (Claude Code's tool names
 * match the same Modus tools), commands unchanged (`$CLAUDE_PROJECT_DIR` is set when they run).
 */
export function importClaudeHooks(settings: unknown): { ok: true; value: ClaudeImport } | { ok: false; error: string } {
  const parsed = ClaudeSettings.safeParse(settings)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return {
      ok: false,
      error: `not Claude Code settings with hooks (${issue?.path.join('.') || 'top level'}: ${issue?.message ?? 'invalid'})`
    }
  }
  const hooks: HooksFile['hooks'] = {}
  const skipped: string[] = []
  for (const [event, groups] of Object.entries(parsed.data.hooks ?? {})) {
    for (const group of groups) {
      for (const hook of group.hooks) {
        const what = `${event} ${hook.command ?? hook.type}`
        if (!isHookEvent(event)) {
          skipped.push(`${what}: Modus has no ${event} event`)
          continue
        }
        if (hook.type !== 'command' || !hook.command?.trim()) {
          skipped.push(`${what}: only "command" hooks are imported`)
          continue
        }
        const config: HookConfig = {
          command: hook.command.trim(),
          ...(group.matcher !== undefined && group.matcher !== '' ? { matcher: group.matcher } : {}),
          ...(hook.timeout !== undefined && hook.timeout > 0
            ? { timeout: Math.min(hook.timeout, MAX_HOOK_TIMEOUT_SEC) }
            : {})
        }
        ;(hooks[event] ??= []).push(config)
      }
    }
  }
  return { ok: true, value: { file: { hooks }, skipped } }
}
