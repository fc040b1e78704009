import type { CredentialStoreId } from '../../../../shared/sandbox/credentials'
import {
  ModeConfig,
  TOOL_GROUPS,
  groupName,
  groupOptions,
  type AutoApprove,
  type GroupEntry,
  type SandboxNetworkPolicy
} from '../../../../shared/modes/schema'
import { fileRegexProblem } from '../../../../shared/modes/file-regex'

export type ToolGroupKey = (typeof TOOL_GROUPS)[number]

export const TOGGLES = [
  { key: 'read', label: 'Read files in the workspace' },
  { key: 'readOutsideWorkspace', label: 'Read files outside the workspace' },
  { key: 'edit', label: 'Edit files' },
  {
    key: 'command',
    label: 'Run commands that match an allow rule (no rule matching: asks; deny and ask rules still apply)'
  },
  { key: 'mcp', label: 'Use MCP tools and resources' },
  { key: 'browser', label: 'Open local pages in the browser (localhost, 127.0.0.1, this workspace’s files)' },
  {
    key: 'sandboxedCommands',
    label: 'Run commands no rule matches when they run in the sandbox below (deny and ask rules still apply)'
  },
  { key: 'modeSwitch', label: 'Switch modes' },
  { key: 'subtasks', label: 'Start subtasks' },
  { key: 'followup', label: 'Answer follow-up questions with the first suggestion' }
] as const satisfies ReadonlyArray<{ key: keyof AutoApprove; label: string }>

export type ToggleKey = (typeof TOGGLES)[number]['key']

/** The editor's form state: every field as the user types it (strings for numbers and lists). */
export interface ModeDraft {
  slug: string
  name: string
  roleDefinition: string
  whenToUse: string
  description: string
  customInstructions: string
  groups: Record<ToolGroupKey, boolean>
  fileRegex: string
  fileRegexDescription: string
  rules: { allow: string; ask: string; deny: string }
  /** Browser URL allow rules (origins or URL prefixes), one per line. */
  browserAllow: string
  toggles: Record<ToggleKey, boolean>
  followupTimeoutSeconds: string
  maxRequests: string
  maxCostUsd: string
  /** MCP servers the mode may use: blank or `all`, `none`, or names separated by commas. */
  mcpServers: string
  /** Commands in the OS sandbox: roots, domains and unsandboxed command rules one per line (blank roots: workspace + temp). */
  sandbox: {
    enabled: boolean
    writableRoots: string
    network: SandboxNetworkPolicy
    allowedDomains: string
    unsandboxedCommands: string
    /** On only where the sandbox can start (the built-in modes' default); kept as loaded. */
    whereAvailable: boolean
    /** Credential stores given back to this mode's commands. */
    readableCredentials: CredentialStoreId[]
  }
}

/** The field an error is shown next to. */
export type DraftField =
  | 'slug'
  | 'name'
  | 'roleDefinition'
  | 'whenToUse'
  | 'description'
  | 'customInstructions'
  | 'groups'
  | 'fileRegex'
  | 'rules'
  | 'browserRules'
  | 'followupTimeoutSeconds'
  | 'maxRequests'
  | 'maxCostUsd'
  | 'mcpServers'
  | 'sandbox'
  | 'sandboxRoots'
  | 'sandboxDomains'
  | 'sandboxOutside'
  | 'form'

export type DraftErrors = Partial<Record<DraftField, string>>

const lines = (list: readonly string[] | undefined): string => (list ?? []).join('\n')
const fromLines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

export function draftFromMode(mode: ModeConfig): ModeDraft {
  const groups = Object.fromEntries(TOOL_GROUPS.map((group) => [group, false])) as Record<ToolGroupKey, boolean>
  let fileRegex = ''
  let fileRegexDescription = ''
  for (const entry of mode.groups) {
    groups[groupName(entry)] = true
    const options = groupOptions(entry)
    if (groupName(entry) === 'edit' && options) {
      fileRegex = options.fileRegex ?? ''
      fileRegexDescription = options.description ?? ''
    }
  }
  const auto = mode.autoApprove ?? {}
  return {
    slug: mode.slug,
    name: mode.name,
    roleDefinition: mode.roleDefinition,
    whenToUse: mode.whenToUse ?? '',
    description: mode.description ?? '',
    customInstructions: mode.customInstructions ?? '',
    groups,
    fileRegex,
    fileRegexDescription,
    rules: {
      allow: lines(mode.commandRules?.allow),
      ask: lines(mode.commandRules?.ask),
      deny: lines(mode.commandRules?.deny)
    },
    browserAllow: lines(mode.browserRules?.allow),
    toggles: Object.fromEntries(TOGGLES.map(({ key }) => [key, auto[key] === true])) as Record<ToggleKey, boolean>,
    followupTimeoutSeconds: auto.followupTimeoutMs ? String(auto.followupTimeoutMs / 1000) : '',
    maxRequests: auto.maxRequests ? String(auto.maxRequests) : '',
    maxCostUsd: auto.maxCostUsd ? String(auto.maxCostUsd) : '',
    mcpServers:
      mode.mcpServers === undefined || mode.mcpServers === 'all'
        ? ''
        : Array.isArray(mode.mcpServers)
          ? mode.mcpServers.join(', ')
          : mode.mcpServers,
    sandbox: {
      enabled: mode.sandbox?.enabled ?? false,
      writableRoots: lines(mode.sandbox?.writableRoots),
      network: mode.sandbox?.network ?? 'none',
      allowedDomains: lines(mode.sandbox?.allowedDomains),
      unsandboxedCommands: lines(mode.sandbox?.unsandboxedCommands),
      whereAvailable: mode.sandbox?.whereAvailable === true,
      readableCredentials: [...(mode.sandbox?.readableCredentials ?? [])]
    }
  }
}

/** The sandbox setting, left out while it is off and untouched. */
function sandboxFromDraft(draft: ModeDraft['sandbox']): Record<string, unknown> | undefined {
  const writableRoots = fromLines(draft.writableRoots)
  const allowedDomains = fromLines(draft.allowedDomains)
  const unsandboxedCommands = fromLines(draft.unsandboxedCommands)
  const untouched =
    writableRoots.length === 0 &&
    allowedDomains.length === 0 &&
    unsandboxedCommands.length === 0 &&
    draft.network === 'none' &&
    draft.readableCredentials.length === 0
  if (!draft.enabled && untouched) return undefined
  return {
    enabled: draft.enabled,
    ...(draft.whereAvailable ? { whereAvailable: true } : {}),
    ...(draft.readableCredentials.length > 0 ? { readableCredentials: draft.readableCredentials } : {}),
    ...(writableRoots.length > 0 ? { writableRoots } : {}),
    network: draft.network,
    ...(allowedDomains.length > 0 ? { allowedDomains } : {}),
    ...(unsandboxedCommands.length > 0 ? { unsandboxedCommands } : {})
  }
}

function mcpServersFromDraft(text: string): 'all' | 'none' | string[] | undefined {
  const trimmed = text.trim()
  if (!trimmed) return undefined
  if (trimmed === 'all' || trimmed === 'none') return trimmed
  return trimmed.split(/[,\s]+/).filter(Boolean)
}

export const emptyDraft = (): ModeDraft =>
  draftFromMode({ slug: '', name: '', roleDefinition: '', groups: ['read'], autoApprove: { read: true } })

/** A number field: blank → undefined; otherwise the number, or NaN so validation names the field. */
const optionalNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()))

/** The draft as a mode config, before validation. Empty optional texts are left out, false toggles too. */
export function modeInputFromDraft(draft: ModeDraft): Record<string, unknown> {
  const groups: GroupEntry[] = TOOL_GROUPS.filter((group) => draft.groups[group]).map((group) => {
    if (group !== 'edit' || !draft.fileRegex.trim()) return group
    const options = draft.fileRegexDescription.trim()
      ? { fileRegex: draft.fileRegex.trim(), description: draft.fileRegexDescription.trim() }
      : { fileRegex: draft.fileRegex.trim() }
    return ['edit', options]
  })
  const autoApprove: Record<string, unknown> = {}
  for (const { key } of TOGGLES) if (draft.toggles[key]) autoApprove[key] = true
  const timeout = optionalNumber(draft.followupTimeoutSeconds)
  if (timeout !== undefined) autoApprove.followupTimeoutMs = Math.round(timeout * 1000)
  const maxRequests = optionalNumber(draft.maxRequests)
  if (maxRequests !== undefined) autoApprove.maxRequests = maxRequests
  const maxCostUsd = optionalNumber(draft.maxCostUsd)
  if (maxCostUsd !== undefined) autoApprove.maxCostUsd = maxCostUsd
  const commandRules: Record<string, string[]> = {}
  for (const list of ['allow', 'ask', 'deny'] as const) {
    const rules = fromLines(draft.rules[list])
    if (rules.length > 0) commandRules[list] = rules
  }
  const browserAllow = fromLines(draft.browserAllow)
  const optional = (value: string) => (value.trim() ? value : undefined)
  const input: Record<string, unknown> = {
    slug: draft.slug.trim(),
    name: draft.name,
    roleDefinition: draft.roleDefinition,
    whenToUse: optional(draft.whenToUse),
    description: optional(draft.description),
    customInstructions: optional(draft.customInstructions),
    groups,
    autoApprove: Object.keys(autoApprove).length > 0 ? autoApprove : undefined,
    commandRules: Object.keys(commandRules).length > 0 ? commandRules : undefined,
    browserRules: browserAllow.length > 0 ? { allow: browserAllow } : undefined,
    mcpServers: mcpServersFromDraft(draft.mcpServers),
    sandbox: sandboxFromDraft(draft.sandbox)
  }
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key]
  return input
}

/** A sandbox list's error sits under its own text box; the rest of the sandbox under the group. */
const FIELD_OF_SANDBOX: Record<string, DraftField> = {
  writableRoots: 'sandboxRoots',
  allowedDomains: 'sandboxDomains',
  unsandboxedCommands: 'sandboxOutside'
}

const FIELD_OF_AUTO: Record<string, DraftField> = {
  followupTimeoutMs: 'followupTimeoutSeconds',
  maxRequests: 'maxRequests',
  maxCostUsd: 'maxCostUsd'
}

function fieldOf(path: readonly PropertyKey[]): DraftField {
  const [head, second] = path
  if (head === 'groups') return path.includes('fileRegex') ? 'fileRegex' : 'groups'
  if (head === 'commandRules') return 'rules'
  if (head === 'browserRules') return 'browserRules'
  if (head === 'mcpServers') return 'mcpServers'
  if (head === 'sandbox') return FIELD_OF_SANDBOX[String(second)] ?? 'sandbox'
  if (head === 'autoApprove') return FIELD_OF_AUTO[String(second)] ?? 'form'
  const direct: DraftField[] = ['slug', 'name', 'roleDefinition', 'whenToUse', 'description', 'customInstructions']
  return direct.includes(head as DraftField) ? (head as DraftField) : 'form'
}

/** Nicer words for the numeric limits than zod's defaults. */
const NUMBER_MESSAGES: Partial<Record<DraftField, string>> = {
  followupTimeoutSeconds: 'Seconds from 1 to 3600, or blank.',
  maxRequests: 'A whole number above 0, or blank for the global cap.',
  maxCostUsd: 'An amount above 0, or blank for the global cap.'
}

/** A rule-list error names the line it is about, so the user finds it among the others. */
function messageOf(path: readonly PropertyKey[], message: string, draft: ModeDraft): string {
  if (path[0] !== 'browserRules' || typeof path[2] !== 'number') return message
  return `${message}: “${fromLines(draft.browserAllow)[path[2]]}”`
}

export type DraftCheck = { ok: true; mode: ModeConfig } | { ok: false; errors: DraftErrors }

/** Validates the draft with the same schema the core uses; each error is placed at its field. */
export function checkDraft(draft: ModeDraft, otherSlugs: readonly string[] = []): DraftCheck {
  const errors: DraftErrors = {}
  const parsed = ModeConfig.safeParse(modeInputFromDraft(draft))
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path)
      errors[field] ??= NUMBER_MESSAGES[field] ?? messageOf(issue.path, issue.message, draft)
    }
  }
  if (!errors.slug && otherSlugs.includes(draft.slug.trim()))
    errors.slug = `A mode with the slug "${draft.slug.trim()}" already exists here.`
  if (!draft.groups.edit && draft.fileRegex.trim())
    errors.fileRegex = 'The file pattern applies to the edit group; turn the edit group on or clear it.'
  if (!errors.fileRegex && draft.fileRegex.trim()) {
    const problem = regexProblem(draft.fileRegex.trim())
    if (problem) errors.fileRegex = problem
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors }
  return { ok: true, mode: parsed.data }
}

/**
 * Why a pattern cannot be a file pattern, in the engine's words (file patterns run on a linear-time
 * RE2 engine, so lookaround and backreferences are refused); null when it can.
 */
export function regexProblem(source: string): string | null {
  return fileRegexProblem(source)
}

/** A slug from a name: what the user most likely wants when they have not typed one. */
export const slugFromName = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
