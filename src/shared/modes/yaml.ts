import { isMap, isSeq, LineCounter, parseDocument, stringify, type Node } from 'yaml'
import { formatIssues, ModeConfig, ModesFile } from './schema'

export type ModesFileFormat = 'modus' | 'roo'

export interface ModesFileProblem {
  message: string
  /** 1-based line of the problem when known. */
  line?: number
}

export type ParsedModesFile =
  | { ok: true; modes: ModeConfig[]; warnings: string[] }
  | { ok: false; problems: ModesFileProblem[] }

/** Invisible characters editors and copy-paste slip into YAML (Roo cleans the same ones). */
const cleanText = (text: string): string =>
  text.replace(/^\uFEFF/, '').replace(/[\u200B-\u200D\u2060]/g, '').replace(/\u00A0/g, ' ')

const MODUS_ONLY_KEYS = ['autoApprove', 'commandRules', 'mcpServers'] as const

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

function lineOf(root: Node | null, path: readonly PropertyKey[], lines: LineCounter): number | undefined {
  let node: unknown = root
  let best: number | undefined
  for (const key of path) {
    if (isMap(node)) node = node.get(key as string, true)
    else if (isSeq(node)) node = node.get(key as number, true)
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
  const parsed = ModesFile.safeParse(dropRooExtras(raw, warnings))
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
  const modes =
    format === 'roo' ? parsed.data.customModes.map((mode) => withoutModusKeys(mode)) : parsed.data.customModes
  return { ok: true, modes: modes.map(({ source: _source, ...mode }) => mode), warnings }
}

/** Roo has no per-mode auto-approve or command rules: exporting drops them, importing starts without. */
export function withoutModusKeys(mode: ModeConfig): ModeConfig {
  const copy: Record<string, unknown> = { ...mode }
  for (const key of MODUS_ONLY_KEYS) delete copy[key]
  return copy as ModeConfig
}

const ORDERED_KEYS = [
  'slug',
  'name',
  'roleDefinition',
  'whenToUse',
  'description',
  'customInstructions',
  'groups',
  'autoApprove',
  'commandRules',
  'mcpServers'
] as const

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
