import { grantsNeedTrust, type ModeSandbox, type ResolvedMode, type SandboxNetworkPolicy } from '../modes/schema'
import type { SandboxStatus } from '../sandbox/status'
import type { CredentialStoreId } from '../sandbox/credentials'
import { firstPartMatch } from './commands'

/** The sandbox a mode's commands run in, as the core applies it. */
export interface EffectiveSandbox {
  /** Absolute or workspace-relative roots; undefined = the workspace and the system temp dir. */
  writableRoots?: string[]
  network: SandboxNetworkPolicy
  /** Passed without asking (allow-list and ask policies). */
  allowedDomains: string[]
  /** Credential stores given back to the mode (absent: none; all others stay unreadable). */
  readableCredentials?: CredentialStoreId[]
}

/**
 * The sandbox of a command in an untrusted workspace whose mode has none (or has it off): writes to
 * the workspace and the temp dir, `.git/` read-only, credential stores unreadable, no network.
 */
export const UNTRUSTED_DEFAULT_SANDBOX: EffectiveSandbox = { network: 'none', allowedDomains: [] }

/**
 * The mode's sandbox, or null when it has none. A project mode in an untrusted workspace keeps its
 * sandbox but not what widens it: its own writable roots, allowed domains and readable credential
 * stores wait for trust.
 */
export function effectiveSandbox(
  mode: Pick<ResolvedMode, 'origin' | 'sandbox' | 'savedByUser'>,
  trusted: boolean
): EffectiveSandbox | null {
  const sandbox: ModeSandbox | undefined = mode.sandbox
  if (!sandbox?.enabled) return null
  const widens = !grantsNeedTrust(mode) || trusted
  const readable = widens ? (sandbox.readableCredentials ?? []) : []
  return {
    writableRoots: widens ? sandbox.writableRoots : undefined,
    network: sandbox.network,
    allowedDomains: widens && sandbox.network !== 'none' ? (sandbox.allowedDomains ?? []) : [],
    ...(readable.length > 0 ? { readableCredentials: readable } : {})
  }
}

/**
 * How a command the policy let through (or asked about) runs, decided once by the policy and
 * carried out by the core as is: in this sandbox, or outside with the line its result shows.
 */
export type SandboxPlan = { sandboxed: true; sandbox: EffectiveSandbox } | { sandboxed: false; note?: string }

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
  rule === 'outside-sandbox-requested' || rule === UNTRUSTED_UNSANDBOXED || /^mode '[^']*' unsandboxed "/.test(rule)

/** The rule of an ask in an untrusted workspace where no sandbox can start: trust, not a rule, lifts it. */
export const UNTRUSTED_UNSANDBOXED = 'untrusted-unsandboxed'

/**
 * Whether a command runs outside its sandbox (the caller knows it has one): one of the mode's `unsandboxedCommands` rules
 * matches a part of it, or the model asked (`outside_sandbox`). Either way it always asks first.
 */
export function outsideSandbox(
  mode: Pick<ResolvedMode, 'sandbox' | 'slug'>,
  command: string,
  requested: boolean
): OutsideSandbox | null {
  // A mode without a sandbox of its own (the untrusted default applies) has no rules of its own.
  const rule = mode.sandbox?.enabled ? firstPartMatch(command, mode.sandbox.unsandboxedCommands ?? []) : null
  if (rule)
    return {
      rule: `mode '${mode.slug}' unsandboxed "${rule}"`,
      why: `it matches the mode's unsandboxed command rule "${rule}"`
    }
  if (requested)
    return { rule: 'outside-sandbox-requested', why: 'the model asked to run it outside the sandbox (outside_sandbox)' }
  return null
}
