import { isMap, isSeq, LineCounter, parseDocument, stringify, type Node } from 'yaml'
import { carriesRooCommandSettings, splitRooCommandSettings } from './roo-command-settings'
import { formatIssues, ModeConfig, ModesFile, TOOL_GROUPS } from './schema'

export type ModesFileFormat = 'modus' | 'roo'

export interface ModesFileProblem {
  message: string
  /** 1-based line of the problem when known. */
  line?: number
}

export type ParsedModesFile =
  { ok: true; modes: ModeConfig[]; warnings: string[] } | { ok: false; problems: ModesFileProblem[] }

/** Invisible characters editors and copy-paste slip into YAML (Roo cleans the same ones). */
const cleanText = (text: string): string =>
  text
    .replace(/^\uFEFF/, '')
    .replace(/[\u200B-\u200D\u2060]/g, '')
    .replace(/\u00A0/g, ' ')

/**
 * Every field of a mode, in the order files are written: Roo's own fields travel to and from
 * `.roomodes`; Modus's (grants and limits Roo has no place for) are dropped when exporting and
 * stripped when importing, so a Roo file never grants anything. `source` is Roo's bookkeeping,
 * written only into Roo files. A field added to the schema does not compile until it is placed here.
 */
const MODE_FIELDS: Readonly<Record<keyof ModeConfig, 'roo' | 'modus' | 'roo-bookkeeping'>> = {
  slug: 'roo',
  name: 'roo',
  roleDefinition: 'roo',
  whenToUse: 'roo',
  description: 'roo',
  customInstructions: 'roo',
  groups: 'roo',
  autoApprove: 'modus',
  commandRules: 'modus',
  browserRules: 'modus',
  mcpServers: 'modus',
  sandbox: 'modus',
  source: 'roo-bookkeeping'
}

const fieldsThat = (kinds: ReadonlyArray<(typeof MODE_FIELDS)[keyof ModeConfig]>) =>
  (Object.keys(MODE_FIELDS) as Array<keyof ModeConfig>).filter((key) => kinds.includes(MODE_FIELDS[key]))

/** What importing a Roo file strips and exporting to one drops. */
export const MODUS_ONLY_KEYS = fieldsThat(['modus'])
const ORDERED_KEYS = fieldsThat(['roo', 'modus'])

/** Fields Roo writes that Modus does not keep (rule files are imported separately, later). */
function dropRooExtras(raw: unknown, warnings: string[]): unknown {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { customModes?: unknown }).customModes)) return raw
  const file = raw as { customModes: unknown[] }
  return {
    ...file,
    customModes: file.customModes.map((mode) => {
      if (!mode || typeof mode !== 'object' || !('rulesFiles' in mode)) return mode
      const { rulesFiles: _rules, ...rest } = mode as Record<string, unknown>
      warnings.push(`Mode "${String(rest.slug)}": its rule files were not imported`)
      return rest
    })
  }
}

/**
 * Roo's files may name a group Modus does not have (a newer or forked Roo): the mode is kept without
 * it and the import says so, rather than refusing the whole file or losing the group unnoticed.
 */
function dropUnknownGroups(raw: unknown, warnings: string[]): unknown {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { customModes?: unknown }).customModes)) return raw
  const known = new Set<string>(TOOL_GROUPS)
  const nameOf = (entry: unknown): unknown => (Array.isArray(entry) ? entry[0] : entry)
  const file = raw as { customModes: unknown[] }
  return {
    ...file,
    customModes: file.customModes.map((mode) => {
      const groups = (mode as { groups?: unknown } | null)?.groups
      if (!Array.isArray(groups)) return mode
      const unknown = groups.map(nameOf).filter((name): name is string => typeof name === 'string' && !known.has(name))
      if (unknown.length === 0) return mode
      const slug = String((mode as { slug?: unknown }).slug)
      const listed = unknown.map((name) => `"${name}"`).join(', ')
      warnings.push(
        `Mode "${slug}": Modus has no ${unknown.length === 1 ? 'group' : 'groups'} ${listed}; imported without ${unknown.length === 1 ? 'it' : 'them'} (Modus groups: ${TOOL_GROUPS.join(', ')})`
      )
      return { ...(mode as object), groups: groups.filter((entry) => !unknown.includes(nameOf(entry) as string)) }
    })
  }
}

/** Reads YAML, or JSON where the text is not YAML; null when it is neither. */
function readStructured(cleaned: string): { raw: unknown; document: ReturnType<typeof parseDocument> } | null {
  const document = parseDocument(cleaned, { uniqueKeys: true })
  if (document.errors.length === 0) return { raw: document.toJS(), document }
  try {
    return { raw: JSON.parse(cleaned), document }
  } catch {
    return null
  }
}

export interface DetectedModesFormat {
  format: ModesFileFormat
  /** Why, in the user's words. */
  reason: string
}

/**
 * Which kind of modes file a text is, from its content (a file's name says nothing: Roo's export
 * may be saved as `roomodes.yaml`, Modus's as `.roomodes`). Only Modus writes its own settings
 * (auto-approve, command rules); anything without them reads as Roo's, which grants nothing.
 * Null when the text is not a modes file at all.
 */
export function detectModesFormat(text: string): DetectedModesFormat | null {
  const cleaned = cleanText(text)
  if (cleaned.trim() === '') return null
  const read = readStructured(cleaned)
  if (carriesRooCommandSettings(read?.raw))
    return {
      format: 'roo',
      reason: "it carries Roo's settings: its command toggle and allowed / denied commands come along"
    }
  const modes = (read?.raw as { customModes?: unknown } | null)?.customModes
  if (!Array.isArray(modes)) return null
  const keys = new Set(
    (modes as unknown[]).flatMap((mode) => (mode && typeof mode === 'object' ? Object.keys(mode) : []))
  )
  const modusKeys = MODUS_ONLY_KEYS.filter((key) => keys.has(key))
  if (modusKeys.length > 0) return { format: 'modus', reason: `it has Modus settings (${modusKeys.join(', ')})` }
  const rooKeys = ['source', 'rulesFiles'].filter((key) => keys.has(key))
  if (rooKeys.length > 0) return { format: 'roo', reason: `it has Roo's fields (${rooKeys.join(', ')})` }
  return { format: 'roo', reason: 'it has no Modus settings, so nothing is auto-approved' }
}

function lineOf(root: Node | null, path: readonly PropertyKey[], lines: LineCounter): number | undefined {
  let node: unknown = root
  let best: number | undefined
  for (const key of path) {
    if (isMap(node)) node = node.get(key, true)
    else if (isSeq(node)) node = node.get(key, true)
    else break
    const range = (node as Node | undefined)?.range
    if (range) best = lines.linePos(range[0]).line
  }
  return best
}

/**
 * Parse a modes file (`.modus/modes.yaml`, `.roomodes`, `custom_modes.yaml`): YAML, or JSON as
 * Roo allows. An empty file is an empty list. Every problem carries its line when one is known.
 */
export function parseModesText(text: string, format: ModesFileFormat = 'modus'): ParsedModesFile {
  const cleaned = cleanText(text)
  if (cleaned.trim() === '') return { ok: true, modes: [], warnings: [] }
  const lines = new LineCounter()
  const document = parseDocument(cleaned, { lineCounter: lines, uniqueKeys: true })
  let raw: unknown
  if (document.errors.length > 0) {
    try {
      raw = JSON.parse(cleaned)
    } catch {
      return {
        ok: false,
        problems: document.errors.map((error) => ({
          message: error.message.split('\n')[0].replace(/:$/, ''),
          line: error.linePos?.[0]?.line
        }))
      }
    }
  } else raw = document.toJS()
  if (raw === null || raw === undefined) return { ok: true, modes: [], warnings: [] }
  const warnings: string[] = []
  const { modesFile, command } =
    format === 'roo' ? splitRooCommandSettings(raw) : { modesFile: raw, command: undefined }
  const cleanedRaw = dropRooExtras(modesFile, warnings)
  const parsed = ModesFile.safeParse(format === 'roo' ? dropUnknownGroups(cleanedRaw, warnings) : cleanedRaw)
  if (!parsed.success) {
    const root = document.errors.length === 0 ? (document.contents as Node | null) : null
    return {
      ok: false,
      problems: parsed.error.issues.map((issue, index) => ({
        message: formatIssues(parsed.error)[index],
        line: lineOf(root, issue.path, lines)
      }))
    }
  }
  let modes = format === 'roo' ? parsed.data.customModes.map((mode) => withoutModusKeys(mode)) : parsed.data.customModes
  if (command) {
    // Roo's command settings are global: every mode imported with them gets them.
    modes = modes.map((mode) => ({
      ...mode,
      autoApprove: { command: command.autoApproveCommand },
      commandRules: command.rules
    }))
    warnings.push(...command.warnings)
  }
  return { ok: true, modes: modes.map(({ source: _source, ...mode }) => mode), warnings }
}

/**
 * Roo has no per-mode auto-approve or command rules: exporting drops them, importing starts without
 * (unless the text carries Roo's global command settings, see `splitRooCommandSettings`).
 */
export function withoutModusKeys(mode: ModeConfig): ModeConfig {
  const copy: Record<string, unknown> = { ...mode }
  for (const key of MODUS_ONLY_KEYS) delete copy[key]
  return copy as ModeConfig
}

function orderedMode(mode: ModeConfig, format: ModesFileFormat): Record<string, unknown> {
  const source = format === 'roo' ? withoutModusKeys(mode) : mode
  const out: Record<string, unknown> = {}
  for (const key of ORDERED_KEYS) {
    const value = (source as Record<string, unknown>)[key]
    if (value !== undefined) out[key] = value
  }
  if (format === 'roo') out.source = 'project'
  return out
}

/** Serialise modes as a modes file (`customModes:` list), for `.modus/modes.yaml` or Roo's `.roomodes`. */
export function modesToYaml(modes: readonly ModeConfig[], format: ModesFileFormat = 'modus'): string {
  return stringify({ customModes: modes.map((mode) => orderedMode(mode, format)) }, { lineWidth: 0 })
}
