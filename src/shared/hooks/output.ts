import { z } from 'zod'
import type { HookEvent } from './schema'

/** How a hook process ended, before its output is read. */
export type HookRun =
  | { kind: 'exited'; code: number; stdout: string; stderr: string }
  | { kind: 'timed-out'; timeoutSec: number; stderr: string }
  | { kind: 'spawn-failed'; error: string }

/**
 * What one hook said, in Modus's terms. `problem`: the hook failed, hung or printed what cannot
 * be read; it is reported, and a tool call it was asked about asks.
 */
export type HookVerdict =
  | { kind: 'none'; note?: string }
  | { kind: 'allow'; reason?: string; note?: string }
  | { kind: 'ask'; reason?: string; note?: string }
  /** PreToolUse: deny the call. UserPromptSubmit: do not send the prompt. Stop: keep the task going. PostToolUse: a note for the model. */
  | { kind: 'block'; reason: string }
  | { kind: 'problem'; problem: string }

/**
 * The fields read from a hook's JSON: Modus's (`decision`, `reason`, `note`) and Claude Code's
 * (`decision: "block"`/`"approve"`, `hookSpecificOutput.permissionDecision`, `additionalContext`),
 * so its users' scripts work unchanged. Other fields Claude Code defines are accepted and ignored.
 */
const HookOutput = z
  .object({
    decision: z.enum(['allow', 'approve', 'ask', 'deny', 'block']).optional(),
    reason: z.string().optional(),
    note: z.string().optional(),
    additionalContext: z.string().optional(),
    hookSpecificOutput: z
      .object({
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: z.string().optional(),
        additionalContext: z.string().optional()
      })
      .passthrough()
      .optional()
  })
  .passthrough()
type HookOutput = z.infer<typeof HookOutput>

const MAX_TEXT = 4_000
const clip = (text: string): string =>
  text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… [cut at ${MAX_TEXT} characters]` : text
const lastLines = (text: string): string => clip(text.trim().split('\n').slice(-5).join('\n'))

/** Reads a finished hook the way Claude Code does: exit 2 blocks with stderr, other failures are problems, stdout is JSON. */
export function readHookRun(event: HookEvent, run: HookRun): HookVerdict {
  if (run.kind === 'spawn-failed') return { kind: 'problem', problem: `could not start (${run.error})` }
  if (run.kind === 'timed-out')
    return { kind: 'problem', problem: `did not finish within ${run.timeoutSec} s and was stopped` }
  if (run.code === 2) return { kind: 'block', reason: lastLines(run.stderr) || 'no reason given (exit code 2)' }
  if (run.code !== 0) {
    const said = lastLines(run.stderr || run.stdout)
    return { kind: 'problem', problem: `failed with exit code ${run.code}${said ? `: ${said}` : ''}` }
  }
  const text = run.stdout.trim()
  if (!text) return { kind: 'none' }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    // Claude Code adds a prompt hook's plain output to the prompt; everywhere else output must be JSON.
    if (event === 'UserPromptSubmit') return { kind: 'none', note: clip(text) }
    return { kind: 'problem', problem: `printed output that is not JSON: ${clip(text.split('\n')[0] ?? '')}` }
  }
  const parsed = HookOutput.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return {
      kind: 'problem',
      problem: `printed JSON Modus cannot read (${issue?.path.join('.') || 'top level'}: ${issue?.message ?? 'invalid'})`
    }
  }
  return verdictOf(event, parsed.data)
}

function verdictOf(event: HookEvent, output: HookOutput): HookVerdict {
  const note = noteOf(output)
  const specific = output.hookSpecificOutput?.permissionDecision
  const reason = output.hookSpecificOutput?.permissionDecisionReason ?? output.reason
  const decision = specific ?? output.decision
  const withNote = note ? { note } : {}
  switch (decision) {
    case undefined:
      return { kind: 'none', ...withNote }
    case 'deny':
    case 'block':
      return { kind: 'block', reason: clip(reason?.trim() || 'no reason given') }
    case 'allow':
    case 'approve':
      // Only a tool call can be allowed; elsewhere "allow" just lets things go on.
      return event === 'PreToolUse'
        ? { kind: 'allow', ...(reason ? { reason: clip(reason) } : {}), ...withNote }
        : { kind: 'none', ...withNote }
    case 'ask':
      return event === 'PreToolUse'
        ? { kind: 'ask', ...(reason ? { reason: clip(reason) } : {}), ...withNote }
        : { kind: 'none', ...withNote }
  }
}

/** Text for the model: Modus's `note`, or Claude Code's `additionalContext` (top level or hook-specific). */
function noteOf(output: HookOutput): string | undefined {
  const text = output.note ?? output.hookSpecificOutput?.additionalContext ?? output.additionalContext
  return text?.trim() ? clip(text.trim()) : undefined
}
