import type { BuiltInAdditions } from './builtin-additions'
import { z } from 'zod'
import type { ToolGroupName } from '../tools/types'
import { fileRegexProblem } from './file-regex'
import { CREDENTIAL_STORE_IDS } from '../sandbox/credentials'

export const TOOL_GROUPS = [
  'read',
  'edit',
  'command',
  'browser',
  'mcp',
  'modes'
] as const satisfies readonly ToolGroupName[]
export const ToolGroup = z.enum(TOOL_GROUPS)

export const SLUG_MESSAGE = 'Slug must contain only letters, numbers and dashes'

export const GroupOptions = z
  .object({
    fileRegex: z
      .string()
      .optional()
      .superRefine((source, ctx) => {
        const problem = source === undefined ? null : fileRegexProblem(source)
        if (!problem) return
        const invalid = problem.startsWith('Invalid regular expression')
        ctx.addIssue({ code: 'custom', message: invalid ? 'Invalid regular expression pattern' : problem })
      }),
    description: z.string().optional()
  })
  .strict()
export type GroupOptions = z.infer<typeof GroupOptions>

export const GroupEntry = z.union([ToolGroup, z.tuple([ToolGroup, GroupOptions])])
export type GroupEntry = z.infer<typeof GroupEntry>

export const groupName = (entry: GroupEntry): ToolGroupName => (typeof entry === 'string' ? entry : entry[0])
export const groupOptions = (entry: GroupEntry): GroupOptions | undefined =>
  typeof entry === 'string' ? undefined : entry[1]

export const ModeGroups = z.array(GroupEntry).superRefine((groups, ctx) => {
  const seen = new Set<string>()
  for (const entry of groups) {
    const name = groupName(entry)
    if (seen.has(name)) ctx.addIssue({ code: 'custom', message: `Duplicate groups are not allowed: ${name}` })
    seen.add(name)
  }
})

/** Per-mode auto-approve toggles. Absent = ask. Writes outside the workspace always ask: no toggle. */
export const AutoApprove = z
  .object({
    read: z.boolean(),
    readOutsideWorkspace: z.boolean(),
    edit: z.boolean(),
    command: z.boolean(),
    mcp: z.boolean(),
    /** Opening pages on localhost / 127.0.0.1 / the workspace's files (other origins: browserRules). */
    browser: z.boolean(),
    modeSwitch: z.boolean(),
    /** Commands no rule matches run without asking when the mode's sandbox confines them. */
    sandboxedCommands: z.boolean(),
    subtasks: z.boolean(),
    followup: z.boolean(),
    /** How long a follow-up question waits before its first suggestion is picked. */
    followupTimeoutMs: z.number().int().min(1000).max(3_600_000),
    maxRequests: z.number().int().positive(),
    maxCostUsd: z.number().positive()
  })
  .partial()
  .strict()
export type AutoApprove = z.infer<typeof AutoApprove>

const ruleList = z.array(z.string().trim().min(1, 'A command rule must not be empty'))
export const CommandRules = z
  .object({ allow: ruleList.optional(), ask: ruleList.optional(), deny: ruleList.optional() })
  .strict()
export type CommandRules = z.infer<typeof CommandRules>

/** Pages other than local ones that the mode opens without asking: origins or URL prefixes. */
const URL_RULE_MESSAGE = 'A URL rule must be an http(s):// or file:// origin or URL prefix'
const parsesAsUrl = (text: string): boolean => {
  try {
    new URL(text)
    return true
  } catch {
    return false
  }
}
export const BrowserRules = z
  .object({
    allow: z.array(
      z
        .string()
        .trim()
        .regex(/^(https?|file):\/\/\S+$/, URL_RULE_MESSAGE)
        .refine(parsesAsUrl, URL_RULE_MESSAGE)
    )
  })
  .strict()
export type BrowserRules = z.infer<typeof BrowserRules>

/** Which MCP servers a mode may use: all (the default), none, or the named ones. */
export const ModeMcpServers = z.union([
  z.enum(['all', 'none']),
  z.array(z.string().trim().min(1, 'A server name must not be empty'))
])
export type ModeMcpServers = z.infer<typeof ModeMcpServers>

/** A host (`registry.npmjs.org`), a wildcard (`*.example.com`) or an IP, each with an optional `:port`. */
const DOMAIN_PATTERN =
  /^(?:(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i
export const SandboxDomain = z
  .string()
  .trim()
  .regex(
    DOMAIN_PATTERN,
    'A domain must be a host name (registry.npmjs.org), *.example.com or an IP, optionally with :port'
  )

export const SANDBOX_NETWORK_POLICIES = ['none', 'allow-list', 'ask'] as const
export type SandboxNetworkPolicy = (typeof SANDBOX_NETWORK_POLICIES)[number]

/**
 * Commands in an OS sandbox (bubblewrap on Linux, Seatbelt on macOS). Writes only inside the
 * writable roots (absent: the workspace and the system temp dir; `.git/`, `.modus/` and
 * `.roomodes` stay read-only, like `.modusignore`, `.rooignore` and `.vscode/` where they exist). Network: none, only the listed domains, or ask for any other
 * (listed domains pass without asking; loopback is a host like any other). Credential stores
 * (`~/.ssh`, `~/.aws` …, see sandbox/credentials.ts) are unreadable unless listed in
 * `readableCredentials`.
 */
export const ModeSandbox = z
  .object({
    enabled: z.boolean(),
    /**
     * On only where the sandbox can start (the built-in modes ship so): elsewhere the mode's rules
     * decide as if it had none, and an untrusted workspace asks for every command. Absent (a
     * sandbox the user turned on): where it cannot start, every command asks.
     */
    whereAvailable: z.boolean().optional(),
    writableRoots: z.array(z.string().trim().min(1, 'A writable root must not be empty')).optional(),
    network: z.enum(SANDBOX_NETWORK_POLICIES).default('none'),
    allowedDomains: z.array(SandboxDomain).optional(),
    /** Command rules (`docker *`) whose commands run outside the sandbox: always after asking. */
    unsandboxedCommands: z.array(z.string().trim().min(1, 'A command rule must not be empty')).optional(),
    /** Credential stores this mode's sandboxed commands may read (e.g. `npmrc` for a private registry). */
    readableCredentials: z
      .array(
        z.enum(CREDENTIAL_STORE_IDS, {
          message: `A credential store must be one of: ${CREDENTIAL_STORE_IDS.join(', ')}`
        })
      )
      .optional()
  })
  .strict()
export type ModeSandbox = z.infer<typeof ModeSandbox>

export const ModeSource = z.enum(['builtin', 'global', 'project'])
export type ModeSource = z.infer<typeof ModeSource>

export const ModeConfig = z
  .object({
    slug: z.string().regex(/^[a-zA-Z0-9-]+$/, SLUG_MESSAGE),
    name: z.string().trim().min(1, 'Name must not be empty'),
    roleDefinition: z.string().trim().min(1, 'Role definition must not be empty'),
    whenToUse: z.string().optional(),
    description: z.string().optional(),
    customInstructions: z.string().optional(),
    groups: ModeGroups,
    autoApprove: AutoApprove.optional(),
    commandRules: CommandRules.optional(),
    browserRules: BrowserRules.optional(),
    mcpServers: ModeMcpServers.optional(),
    sandbox: ModeSandbox.optional(),
    /** Where Roo's files say the mode came from; Modus tracks the source itself and ignores it. */
    source: z.enum(['global', 'project']).optional()
  })
  .strict()
export type ModeConfig = z.infer<typeof ModeConfig>
export type ModeConfigInput = z.input<typeof ModeConfig>

export const ModesFile = z
  .object({ customModes: z.array(ModeConfig) })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>()
    file.customModes.forEach((mode, index) => {
      if (seen.has(mode.slug))
        ctx.addIssue({
          code: 'custom',
          path: ['customModes', index, 'slug'],
          message: `Duplicate mode slugs are not allowed: ${mode.slug}`
        })
      seen.add(mode.slug)
    })
  })
export type ModesFile = z.infer<typeof ModesFile>

/** A mode as the app uses it: the config plus where it came from. */
export interface ResolvedMode extends ModeConfig {
  origin: ModeSource
  /** True when a global or project mode replaces a built-in with the same slug. */
  overridesBuiltIn: boolean
  /**
   * A project mode the user saved or imported in the app, and the file still holds exactly that:
   * the user's own grant, in force without the folder's trust and not listed as the project's.
   */
  savedByUser?: boolean
  /** A built-in mode: what the user added to it, kept apart from the built-in's definition. */
  additions?: BuiltInAdditions
}

/** A mode whose auto-approve, allow rules and sandbox widening wait for the folder's trust. */
export const grantsNeedTrust = (mode: { origin: string; savedByUser?: boolean }): boolean =>
  mode.origin === 'project' && mode.savedByUser !== true

const formatPath = (path: readonly PropertyKey[]): string =>
  path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('')

/** zod issues as one line each: `customModes[1].slug: Slug must …`. */
export const formatIssues = (error: z.ZodError): string[] =>
  error.issues.map((issue) => {
    const where = formatPath(issue.path)
    return where ? `${where}: ${issue.message}` : issue.message
  })

export type ModeValidation = { ok: true; mode: ModeConfig } | { ok: false; errors: string[] }

export const validateMode = (input: unknown): ModeValidation => {
  const parsed = ModeConfig.safeParse(input)
  return parsed.success ? { ok: true, mode: parsed.data } : { ok: false, errors: formatIssues(parsed.error) }
}

export type ModesValidation = { ok: true; modes: ModeConfig[] } | { ok: false; errors: string[] }

export const validateModes = (input: unknown): ModesValidation => {
  const parsed = ModesFile.safeParse({ customModes: input })
  return parsed.success
    ? { ok: true, modes: parsed.data.customModes }
    : { ok: false, errors: formatIssues(parsed.error) }
}
