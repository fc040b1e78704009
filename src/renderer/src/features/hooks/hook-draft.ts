import { SavedHookEntry, type HookEntry } from '../../../../shared/contract/hooks'
import {
  DEFAULT_HOOK_TIMEOUT_SEC,
  HOOK_EVENTS,
  MAX_HOOK_TIMEOUT_SEC,
  type HookEvent
} from '../../../../shared/hooks/schema'

/** One hook as the form edits it: every field as typed. */
export type HookDraft = {
  event: string
  matcher: string
  command: string
  timeout: string
  name: string
  modes: string
}

export const EMPTY_DRAFT: HookDraft = {
  event: 'PreToolUse',
  matcher: '',
  command: '',
  timeout: '',
  name: '',
  modes: ''
}

/** What each event is for, in the form's words. */
export const EVENT_WORDS: Record<HookEvent, string> = {
  PreToolUse: 'Before a tool call: may deny it, ask, or allow what the policy would ask',
  PostToolUse: 'After a tool call: may add a note for the model (e.g. a linter’s output)',
  UserPromptSubmit: 'Before your message is sent: may block it or add context',
  Stop: 'When the task would finish: may keep it going'
}

export const isToolEvent = (event: string): boolean => event === 'PreToolUse' || event === 'PostToolUse'

export const draftOf = (hook: HookEntry): HookDraft => ({
  event: hook.event,
  matcher: hook.matcher ?? '',
  command: hook.command,
  timeout: hook.timeout === undefined ? '' : String(hook.timeout),
  name: hook.name ?? '',
  modes: hook.modes?.join(', ') ?? ''
})

/** The entry the core receives; empty optional fields are left out (the defaults apply). */
export function entryOf(draft: HookDraft): Record<string, unknown> {
  const modes = draft.modes
    .split(/[\s,]+/)
    .map((slug) => slug.trim())
    .filter(Boolean)
  return {
    event: draft.event,
    command: draft.command.trim(),
    ...(isToolEvent(draft.event) && draft.matcher.trim() ? { matcher: draft.matcher.trim() } : {}),
    ...(draft.timeout.trim() ? { timeout: Number(draft.timeout) } : {}),
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(modes.length > 0 ? { modes } : {})
  }
}

const FIELD_MESSAGES: Partial<Record<keyof HookDraft, string>> = {
  command: 'Enter the command to run.',
  timeout: `A number of seconds above 0, at most ${MAX_HOOK_TIMEOUT_SEC}.`,
  name: 'At most 80 characters.',
  event: `One of ${HOOK_EVENTS.join(', ')}.`
}

/** The draft checked by the contract's own schema: the hook to save, or each field's problem. */
export function checkDraft(
  draft: HookDraft
): { ok: true; hook: HookEntry } | { ok: false; errors: Partial<Record<keyof HookDraft, string>> } {
  const parsed = SavedHookEntry.safeParse(entryOf(draft))
  if (parsed.success) return { ok: true, hook: parsed.data }
  const errors: Partial<Record<keyof HookDraft, string>> = {}
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'command') as keyof HookDraft
    errors[field] ??= field === 'matcher' ? issue.message : (FIELD_MESSAGES[field] ?? issue.message)
  }
  return { ok: false, errors }
}

/** "30 s (default)" or "5 s". */
export const timeLimitWords = (hook: Pick<HookEntry, 'timeout'>): string =>
  hook.timeout === undefined ? `${DEFAULT_HOOK_TIMEOUT_SEC} s (default)` : `${hook.timeout} s`

/** "every tool" for an empty or `*` matcher; nothing for events that have no tool. */
export const matcherWords = (hook: Pick<HookEntry, 'event' | 'matcher'>): string =>
  isToolEvent(hook.event) ? (hook.matcher?.trim() && hook.matcher.trim() !== '*' ? hook.matcher : 'every tool') : '—'
