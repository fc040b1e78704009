import { promises as fs } from 'node:fs'
import { join, relative, sep } from 'node:path'

const MAX_FILE_CHARS = 20_000
const MAX_TOTAL_CHARS = 100_000
const MAX_FILES_PER_DIR = 50
const MAX_DEPTH = 4

export interface RulesFile {
  /** Workspace-relative path, shown to the model so it knows where a rule comes from. */
  path: string
  content: string
  /** A rule for some files or some work only (Cursor's `globs`, `description`): said with it, for the model to apply. */
  appliesTo?: string
}

export interface RulesReport {
  files: RulesFile[]
  /** Rule files found but not read, with why (a link out of the workspace, the size caps). */
  skipped: Array<{ path: string; reason: string }>
}

/** Where rules are found, in the order they are given; `dir` is walked, `file` read, `cursor` is a folder of .mdc rules. */
type RulesSource = { dir: string } | { file: string } | { cursor: string }

/**
 * The rule files other agents' users already have, after Modus's and Roo's own: Claude Code's
 * CLAUDE.md, Cline's .clinerules (a file or a folder), Cursor's rules, GitHub Copilot's instructions.
 */
const OTHER_AGENTS_RULES: readonly RulesSource[] = [
  { file: 'CLAUDE.md' },
  { file: '.claude/CLAUDE.md' },
  { dir: '.clinerules' },
  { file: '.clinerules' },
  { cursor: '.cursor/rules' },
  { file: '.cursorrules' },
  { file: '.github/copilot-instructions.md' }
]

/**
 * The project's instructions for a mode, in a fixed order: general rules, then the mode's own,
 * Modus's folders before Roo's, then AGENTS.md, then other agents' files (OTHER_AGENTS_RULES).
 * Files are read as text; none of them grants permissions (those need the workspace to be
 * trusted, and live in modes files).
 */
export async function loadRulesFiles(workspace: string, modeSlug: string): Promise<RulesFile[]> {
  return (await loadRulesReport(workspace, modeSlug)).files
}

/**
 * Rule files come from an untrusted folder and go to the provider: only files whose real path is
 * inside the workspace are read (a link to `~/.ssh/id_rsa` or the key file is not), folders are
 * walked without following links, and each file and the whole set are capped.
 */
export async function loadRulesReport(workspace: string, modeSlug: string): Promise<RulesReport> {
  const root = await fs.realpath(workspace).catch(() => workspace)
  const sources: RulesSource[] = [
    { dir: '.modus/rules' },
    { dir: `.modus/rules-${modeSlug}` },
    { dir: '.roo/rules' },
    { dir: `.roo/rules-${modeSlug}` },
    { file: '.roorules' },
    { file: `.roorules-${modeSlug}` },
    { file: 'AGENTS.md' },
    ...OTHER_AGENTS_RULES
  ]
  const report: RulesReport = { files: [], skipped: [] }
  const display = (path: string): string => relative(root, path).split(sep).join('/')
  let total = 0
  for (const source of sources) {
    const folder = 'dir' in source ? source.dir : 'cursor' in source ? source.cursor : undefined
    const start = join(root, folder ?? ('file' in source ? source.file : ''))
    const found = folder ? await filesUnder(root, start, report, display) : [start]
    const paths = 'cursor' in source ? found.filter((path) => /\.mdc?$/i.test(path)) : found
    for (const path of paths) {
      const read = await readContained(root, path)
      if (read === 'absent') continue
      if (read === 'outside') {
        report.skipped.push({ path: display(path), reason: 'links outside the workspace' })
        continue
      }
      const rule = 'cursor' in source ? cursorRule(read.text) : { content: read.text.trim() }
      if ('skip' in rule) {
        report.skipped.push({ path: display(path), reason: rule.skip })
        continue
      }
      const { content } = rule
      if (!content) continue
      if (total + content.length > MAX_TOTAL_CHARS) {
        report.skipped.push({
          path: display(path),
          reason: `over the ${MAX_TOTAL_CHARS}-character limit for all rule files`
        })
        continue
      }
      total += content.length
      report.files.push({ path: display(path), content, ...(rule.appliesTo ? { appliesTo: rule.appliesTo } : {}) })
    }
  }
  return report
}

/** Regular files under `dir`, sorted, never through a link; the folder itself must be inside `root`. */
async function filesUnder(
  root: string,
  dir: string,
  report: RulesReport,
  display: (p: string) => string
): Promise<string[]> {
  const real = await fs.realpath(dir).catch(() => null)
  if (!real) return []
  if (!isInside(root, real)) {
    report.skipped.push({ path: display(dir), reason: 'links outside the workspace' })
    return []
  }
  const found: string[] = []
  const walk = async (folder: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => [])
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (found.length >= MAX_FILES_PER_DIR || entry.name.startsWith('.')) continue
      const path = join(folder, entry.name)
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1)
      else if (entry.isFile() || entry.isSymbolicLink()) found.push(path) // a link is checked when read
    }
  }
  await walk(real, 0)
  return found.sort()
}

/** The text of a regular file whose real path is inside `root`, at most the per-file cap. */
async function readContained(root: string, path: string): Promise<{ text: string } | 'absent' | 'outside'> {
  const real = await fs.realpath(path).catch(() => null)
  if (!real) return 'absent'
  if (!isInside(root, real)) return 'outside'
  const handle = await fs.open(real, 'r').catch(() => null)
  if (!handle) return 'absent'
  try {
    if (!(await handle.stat()).isFile()) return 'absent'
    // Read only what can be used: a huge file costs no more than the cap.
    const buffer = Buffer.alloc(MAX_FILE_CHARS * 4 + 4)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    const bytes = buffer.subarray(0, bytesRead)
    if (bytes.includes(0)) return 'absent'
    const text = bytes.toString('utf8')
    return {
      text:
        text.length > MAX_FILE_CHARS
          ? `${text.slice(0, MAX_FILE_CHARS)}\n[… truncated at ${MAX_FILE_CHARS} characters]`
          : text
    }
  } finally {
    await handle.close()
  }
}

const isInside = (root: string, real: string): boolean =>
  real === root || real.startsWith(root.endsWith(sep) ? root : root + sep)

/**
 * A Cursor rule (`.mdc`: front-matter `description`, `globs`, `alwaysApply`, then the rule). Always
 * applied → given as it is. With globs → given with its globs stated, so the model applies it to the
 * files they match (Modus cannot know in advance which files a turn touches). With a description
 * only (Cursor's "agent requested") → given with the description as when it applies. Neither → a
 * manual rule (Cursor includes it only when @-mentioned): not given, listed as skipped.
 */
export function cursorRule(text: string): { content: string; appliesTo?: string } | { skip: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text)
  if (!match) return { content: text.trim() }
  const fields = frontMatter(match[1] ?? '')
  const content = (match[2] ?? '').trim()
  if (fields.alwaysApply === 'true') return { content }
  const globs = (fields.globs ?? '')
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((glob) => glob.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean)
  if (globs.length > 0)
    return { content, appliesTo: `when working on files matching ${globs.map((glob) => `\`${glob}\``).join(', ')}` }
  if (fields.description) return { content, appliesTo: `when it fits: ${fields.description}` }
  return { skip: 'a manual Cursor rule (no alwaysApply, globs or description): Cursor applies it only when mentioned' }
}

/** Cursor's front-matter, read line by line: its globs are often unquoted (`*.ts`), which YAML would reject. */
function frontMatter(block: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const line of block.split(/\r?\n/)) {
    const field = /^([A-Za-z]+):\s*(.*)$/.exec(line)
    if (field?.[1]) fields[field[1]] = (field[2] ?? '').trim().replace(/^"(.*)"$/, '$1')
  }
  return fields
}
