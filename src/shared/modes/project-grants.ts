import type { AutoApprove, BrowserRules, CommandRules, ModeSandbox } from './schema'
import { credentialStorePaths } from '../sandbox/credentials'

interface ModeGrantSource {
  slug: string
  origin: string
  autoApprove?: AutoApprove
  commandRules?: CommandRules
  browserRules?: BrowserRules
  sandbox?: ModeSandbox
}

const TOGGLE_LABELS: Partial<Record<keyof AutoApprove, string>> = {
  read: 'reads',
  readOutsideWorkspace: 'reads outside the workspace',
  edit: 'edits',
  command: 'commands',
  mcp: 'MCP tools',
  browser: 'local pages in the browser',
  modeSwitch: 'mode switches',
  sandboxedCommands: 'sandboxed commands no rule matches',
  subtasks: 'subtasks',
  followup: 'follow-up answers'
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
    if (mode.origin !== 'project') continue
    const toggles = Object.entries(mode.autoApprove ?? {})
      .filter(([key, on]) => on === true && TOGGLE_LABELS[key as keyof AutoApprove])
      .map(([key]) => TOGGLE_LABELS[key as keyof AutoApprove]!)
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
    if (mode.origin !== 'project') continue
    const name = `Mode '${mode.slug}'`
    for (const [key, on] of Object.entries(mode.autoApprove ?? {})) {
      const label = TOGGLE_LABELS[key as keyof AutoApprove]
      if (on === true && label) items.push(`${name} auto-approves ${label}`)
    }
    for (const rule of mode.commandRules?.allow ?? []) items.push(`${name} allows commands \`${rule}\``)
    for (const rule of mode.browserRules?.allow ?? []) items.push(`${name} opens pages \`${rule}\` without asking`)
    for (const grant of sandboxWidening(mode.sandbox)) items.push(`${name} ${grant}`)
    if (mode.autoApprove?.maxRequests !== undefined) items.push(`${name} allows ${mode.autoApprove.maxRequests} requests per task`)
    if (mode.autoApprove?.maxCostUsd !== undefined) items.push(`${name} allows $${mode.autoApprove.maxCostUsd} per task`)
  }
  return [...new Set(items)].sort()
}

/** What a project's sandbox setting would open beyond the defaults (trust-gated like allow rules). */
function sandboxWidening(sandbox: ModeSandbox | undefined): string[] {
  if (!sandbox?.enabled) return []
  const grants: string[] = []
  for (const root of sandbox.writableRoots ?? []) grants.push(`lets sandboxed commands write \`${root}\``)
  if (sandbox.network !== 'none') for (const domain of sandbox.allowedDomains ?? []) grants.push(`lets sandboxed commands reach \`${domain}\``)
  for (const store of sandbox.readableCredentials ?? []) grants.push(`lets sandboxed commands read ${credentialStorePaths(store)}`)
  return grants
}
