import type { ModeSandbox, ResolvedMode, SandboxNetworkPolicy } from '../modes/schema'
import type { SandboxStatus } from '../sandbox/status'
import { firstPartMatch } from './commands'

/** The sandbox a mode's commands run in, as the core applies it. */
export interface EffectiveSandbox {
  /** Absolute or workspace-relative roots; undefined = the workspace and the system temp dir. */
  writableRoots?: string[]
  network: SandboxNetworkPolicy
  /** Passed without asking (allow-list and ask policies). */
  allowedDomains: string[]
}

/**
 * The mode's sandbox, or null when it has none. A project mode in an untrusted workspace keeps its
 * sandbox but not what widens it: its own writable roots and allowed domains wait for trust.
 */
export function effectiveSandbox(mode: Pick<ResolvedMode, 'origin' | 'sandbox'>, trusted: boolean): EffectiveSandbox | null {
  const sandbox: ModeSandbox | undefined = mode.sandbox
  if (!sandbox?.enabled) return null
  const widens = mode.origin !== 'project' || trusted
  return {
    writableRoots: widens ? sandbox.writableRoots : undefined,
    network: sandbox.network,
    allowedDomains: widens && sandbox.network !== 'none' ? (sandbox.allowedDomains ?? []) : []
  }
}

/** A short description for reasons: "writes only in the workspace and temp, network: ask". */
export function describeSandbox(sandbox: EffectiveSandbox): string {
  const roots = sandbox.writableRoots ? sandbox.writableRoots.join(', ') : 'the workspace and the temp dir'
  const network =
    sandbox.network === 'none'
      ? 'no network'
      : sandbox.network === 'allow-list'
        ? `network only to ${sandbox.allowedDomains.join(', ') || 'no domain'}`
        : 'network asks for unlisted domains'
  return `writes only in ${roots}, ${network}`
}

export type SandboxAvailability = Pick<SandboxStatus, 'available'> & { reason?: string; fix?: string }

/** Why a command of a sandboxed mode would run outside its sandbox: a rule of the mode, or the model asked. */
export interface OutsideSandbox {
  rule: string
  why: string
}

/** Whether a verdict's rule id says the command would run outside the sandbox (an allow rule can never approve it). */
export const isOutsideSandboxRule = (rule: string): boolean =>
  rule === 'outside-sandbox-requested' || /^mode '[^']*' unsandboxed "/.test(rule)

/**
 * Whether a command runs outside the mode's sandbox: one of the mode's `unsandboxedCommands` rules
 * matches a part of it, or the model asked (`outside_sandbox`). Either way it always asks first.
 */
export function outsideSandbox(mode: Pick<ResolvedMode, 'sandbox' | 'slug'>, command: string, requested: boolean): OutsideSandbox | null {
  if (!mode.sandbox?.enabled) return null
  const rule = firstPartMatch(command, mode.sandbox.unsandboxedCommands ?? [])
  if (rule) return { rule: `mode '${mode.slug}' unsandboxed "${rule}"`, why: `it matches the mode's unsandboxed command rule "${rule}"` }
  if (requested) return { rule: 'outside-sandbox-requested', why: 'the model asked to run it outside the sandbox (outside_sandbox)' }
  return null
}
