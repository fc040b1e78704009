import type { CommandRules } from './schema'

/**
 * Roo's command auto-approval, carried over 1:1 with Modus's meaning: the `alwaysAllowExecute`
 * toggle (under Roo's master `autoApprovalEnabled`) becomes the mode's command toggle, and
 * `allowedCommands` / `deniedCommands` become its allow and deny rules. With the toggle off nothing
 * is auto-approved by rules; a deny rule denies either way.
 */
export interface RooCommandSettings {
  autoApproveCommand: boolean
  rules: Required<Pick<CommandRules, 'allow' | 'deny'>>
  warnings: string[]
}

const COMMAND_KEYS = ['autoApprovalEnabled', 'alwaysAllowExecute', 'allowedCommands', 'deniedCommands'] as const
/** Keys of Roo's settings export that hold nothing a modes file needs. */
const EXPORT_ONLY_KEYS = ['providerProfiles', 'globalSettings'] as const

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const entries = (value: unknown): string[] =>
  Array.isArray(value)
    ? value
        .filter((v): v is string => typeof v === 'string')
        .map((v) => v.trim())
        .filter(Boolean)
    : []

/**
 * Roo matches a case-insensitive prefix (`rm` denies `rmdir`); a Modus rule matches whole words.
 * An allow entry keeps its words (never wider than Roo's); a deny entry keeps Roo's breadth
 * (`rm` and `rm*`), the plain rule also matching through options before a subcommand.
 */
function translate(allowed: string[], denied: string[], warnings: string[]): RooCommandSettings['rules'] {
  const allow: string[] = []
  for (const entry of allowed) {
    if (entry !== '*' && entry.includes('*')) {
      warnings.push(
        `Allowed command "${entry}" was not imported: Roo matches its * literally, Modus would read it as a wildcard`
      )
      continue
    }
    allow.push(entry)
  }
  const deny = denied.flatMap((entry) => (entry === '*' || entry.endsWith('*') ? [entry] : [entry, `${entry}*`]))
  for (const a of allow)
    for (const d of denied)
      if (a.length > d.length && a.toLowerCase().startsWith(d.toLowerCase()))
        warnings.push(
          `Roo let the longer allowed "${a}" win over the denied "${d}"; in Modus a deny rule always wins, so "${a}" is denied`
        )
  return { allow: [...new Set(allow)], deny: [...new Set(deny)] }
}

/** Whether a parsed text is Roo's settings export or carries Roo's command settings. */
export function carriesRooCommandSettings(raw: unknown): boolean {
  if (!isRecord(raw)) return false
  return isRecord(raw.globalSettings) || COMMAND_KEYS.some((key) => key in raw)
}

/**
 * Splits a Roo text into the modes file and the command settings it carries: Roo's settings export
 * (`{ providerProfiles, globalSettings: { customModes, alwaysAllowExecute, … } }`) or a modes file
 * with the settings keys beside `customModes`. `command` is undefined when none of them is present.
 */
export function splitRooCommandSettings(raw: unknown): { modesFile: unknown; command?: RooCommandSettings } {
  if (!isRecord(raw)) return { modesFile: raw }
  const settings = isRecord(raw.globalSettings) ? { ...raw.globalSettings, ...raw } : raw
  const modesFile: Record<string, unknown> = { ...raw }
  for (const key of [...COMMAND_KEYS, ...EXPORT_ONLY_KEYS]) delete modesFile[key]
  if (isRecord(raw.globalSettings) && modesFile.customModes === undefined)
    modesFile.customModes = raw.globalSettings.customModes ?? []
  if (!COMMAND_KEYS.some((key) => key in settings)) return { modesFile }
  const warnings: string[] = []
  const masterOff = settings.autoApprovalEnabled === false
  const autoApproveCommand = !masterOff && settings.alwaysAllowExecute === true
  if (masterOff && settings.alwaysAllowExecute === true)
    warnings.push("Roo's auto-approval was switched off as a whole: commands are not auto-approved")
  const rules = translate(entries(settings.allowedCommands), entries(settings.deniedCommands), warnings)
  return { modesFile, command: { autoApproveCommand, rules, warnings } }
}
