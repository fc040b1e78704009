import type { AutoApprove, CommandRules } from './schema'

interface ModeGrantSource {
  slug: string
  origin: string
  autoApprove?: AutoApprove
  commandRules?: CommandRules
}

const TOGGLE_LABELS: Partial<Record<keyof AutoApprove, string>> = {
  read: 'reads',
  readOutsideWorkspace: 'reads outside the workspace',
  edit: 'edits',
  command: 'commands',
  mcp: 'MCP tools',
  modeSwitch: 'mode switches',
  subtasks: 'subtasks',
  followup: 'follow-up answers'
}

/**
 * What a project's own files would grant if the workspace were trusted: auto-approve toggles and
 * allow rules of project modes (deny and ask rules, and stricter caps, apply without trust).
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
    const parts = [
      ...(toggles.length ? [`auto-approves ${toggles.join(', ')}`] : []),
      ...(allow.length ? [`allows commands ${allow.map((rule) => `\`${rule}\``).join(', ')}`] : [])
    ]
    if (parts.length) lines.push(`Mode '${mode.slug}' ${parts.join('; ')}`)
  }
  return lines
}
