import { grantsNeedTrust, type AutoApprove, type BrowserRules, type CommandRules, type ModeSandbox } from './schema'
import { credentialStorePaths } from '../sandbox/credentials'

interface ModeGrantSource {
  slug: string
  origin: string
  /** The user's own save (see ResolvedMode): not the project's grant. */
  savedByUser?: boolean
  autoApprove?: AutoApprove
  commandRules?: CommandRules
  browserRules?: BrowserRules
  sandbox?: ModeSandbox
}

/**
 * What each auto-approve field grants a project mode, one entry per field of the schema: a field
 * added to `AutoApprove` does not compile until it is said here whether (and how) it is a grant, so
 * the trust prompt cannot silently leave it out.
 */
type AutoApproveGrants = {
  [K in keyof Required<AutoApprove>]: Required<AutoApprove>[K] extends boolean
    ? { toggle: string }
    : { cap: (name: string, value: Required<AutoApprove>[K]) => string } | { notAGrant: string }
}

export const AUTO_APPROVE_GRANTS: AutoApproveGrants = {
  read: { toggle: 'reads' },
  readOutsideWorkspace: { toggle: 'reads outside the workspace' },
  edit: { toggle: 'edits' },
  command: { toggle: 'commands' },
  mcp: { toggle: 'MCP tools' },
  browser: { toggle: 'local pages in the browser' },
  modeSwitch: { toggle: 'mode switches' },
  sandboxedCommands: { toggle: 'sandboxed commands no rule matches' },
  subtasks: { toggle: 'subtasks' },
  followup: { toggle: 'follow-up answers' },
  followupTimeoutMs: { notAGrant: 'how long a question waits; answering it is the followup toggle' },
  maxRequests: { cap: (name, value) => `${name} allows ${value} requests per task` },
  maxCostUsd: { cap: (name, value) => `${name} allows $${value} per task` }
}

/**
 * What each sandbox field opens beyond the defaults (trust-gated like allow rules), one entry per
 * field of `ModeSandbox`: a new field does not compile until it says what it grants.
 */
export const SANDBOX_GRANTS: { [K in keyof Required<ModeSandbox>]: (sandbox: ModeSandbox) => string[] } = {
  // Turning the sandbox on narrows; a mode without it asks for what it cannot confine.
  enabled: () => [],
  writableRoots: (sandbox) => (sandbox.writableRoots ?? []).map((root) => `lets sandboxed commands write \`${root}\``),
  // The policy alone opens nothing: `ask` asks, `allow-list` opens only the listed domains.
  network: () => [],
  allowedDomains: (sandbox) =>
    sandbox.network === 'none'
      ? []
      : (sandbox.allowedDomains ?? []).map((domain) => `lets sandboxed commands reach \`${domain}\``),
  // Commands outside the sandbox always ask.
  unsandboxedCommands: () => [],
  // Only decides what happens where no sandbox can start: a trusted folder runs unsandboxed, an untrusted one asks.
  whereAvailable: () => [],
  readableCredentials: (sandbox) =>
    (sandbox.readableCredentials ?? []).map((store) => `lets sandboxed commands read ${credentialStorePaths(store)}`)
}

const entriesOf = <T extends object>(record: T) => Object.entries(record) as Array<[keyof T, T[keyof T]]>

/** The labels of the toggles a mode turns on, in the schema's order. */
function togglesOn(autoApprove: AutoApprove | undefined): string[] {
  return entriesOf(AUTO_APPROVE_GRANTS).flatMap(([key, grant]) =>
    'toggle' in grant && autoApprove?.[key] === true ? [grant.toggle] : []
  )
}

/** The caps a mode sets (a trusted mode may loosen the global ones). */
function capsSet(name: string, autoApprove: AutoApprove | undefined): string[] {
  return entriesOf(AUTO_APPROVE_GRANTS).flatMap(([key, grant]) => {
    const value = autoApprove?.[key]
    return 'cap' in grant && typeof value === 'number' ? [grant.cap(name, value)] : []
  })
}

/**
 * What a project's own files would grant if the workspace were trusted: auto-approve toggles and
 * allow rules (commands, browser URLs) of project modes (deny and ask rules, and stricter caps,
 * apply without trust).
 * One line per mode, for the trust prompt.
 */
export function describeProjectGrants(modes: readonly ModeGrantSource[]): string[] {
  const lines: string[] = []
  for (const mode of modes) {
    if (!grantsNeedTrust(mode)) continue
    const toggles = togglesOn(mode.autoApprove)
    const allow = mode.commandRules?.allow ?? []
    const pages = mode.browserRules?.allow ?? []
    const widened = sandboxWidening(mode.sandbox)
    const parts = [
      ...(toggles.length ? [`auto-approves ${toggles.join(', ')}`] : []),
      ...(allow.length ? [`allows commands ${allow.map((rule) => `\`${rule}\``).join(', ')}`] : []),
      ...(pages.length ? [`opens pages ${pages.map((rule) => `\`${rule}\``).join(', ')} without asking`] : []),
      ...widened
    ]
    if (parts.length) lines.push(`Mode '${mode.slug}' ${parts.join('; ')}`)
  }
  return lines
}

/**
 * The same grants one item each (a toggle, an allow rule, a cap a trusted mode may loosen): what
 * the trust record keeps of what the user saw, so a new or wider grant shows as the difference.
 */
export function projectGrantItems(modes: readonly ModeGrantSource[]): string[] {
  const items: string[] = []
  for (const mode of modes) {
    if (!grantsNeedTrust(mode)) continue
    const name = `Mode '${mode.slug}'`
    for (const toggle of togglesOn(mode.autoApprove)) items.push(`${name} auto-approves ${toggle}`)
    for (const rule of mode.commandRules?.allow ?? []) items.push(`${name} allows commands \`${rule}\``)
    for (const rule of mode.browserRules?.allow ?? []) items.push(`${name} opens pages \`${rule}\` without asking`)
    for (const grant of sandboxWidening(mode.sandbox)) items.push(`${name} ${grant}`)
    items.push(...capsSet(name, mode.autoApprove))
  }
  return [...new Set(items)].sort()
}

/** What a project's sandbox setting would open beyond the defaults; nothing while it is off. */
function sandboxWidening(sandbox: ModeSandbox | undefined): string[] {
  if (!sandbox?.enabled) return []
  return Object.values(SANDBOX_GRANTS).flatMap((grant) => grant(sandbox))
}
