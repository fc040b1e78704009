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
}

export interface RulesReport {
  files: RulesFile[]
  /** Rule files found but not read, with why (a link out of the workspace, the size caps). */
  skipped: Array<{ path: string; reason: string }>
}

/**
 * The project's instructions for a mode, in a fixed order: general rules, then the mode's own,
 * Modus's folders before Roo's, then AGENTS.md. Files are read as text; none of them grants
 * permissions (those need the workspace to be trusted, and live in modes files).
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
  const sources: Array<{ dir?: string; file?: string }> = [
    { dir: '.modus/rules' },
    { dir: `.modus/rules-${modeSlug}` },
    { dir: '.roo/rules' },
    { dir: `.roo/rules-${modeSlug}` },
    { file: '.roorules' },
    { file: `.roorules-${modeSlug}` },
    { file: 'AGENTS.md' }
  ]
  const report: RulesReport = { files: [], skipped: [] }
  const display = (path: string): string => relative(root, path).split(sep).join('/')
  let total = 0
  for (const source of sources) {
    const start = join(root, source.dir ?? source.file ?? '')
    const paths = source.dir ? await filesUnder(root, start, report, display) : [start]
    for (const path of paths) {
      const read = await readContained(root, path)
      if (read === 'absent') continue
      if (read === 'outside') {
        report.skipped.push({ path: display(path), reason: 'links outside the workspace' })
        continue
      }
      const content = read.trim()
      if (!content) continue
      if (total + content.length > MAX_TOTAL_CHARS) {
        report.skipped.push({ path: display(path), reason: `over the ${MAX_TOTAL_CHARS}-character limit for all rule files` })
        continue
      }
      total += content.length
      report.files.push({ path: display(path), content })
    }
  }
  return report
}

/** Regular files under `dir`, sorted, never through a link; the folder itself must be inside `root`. */
async function filesUnder(root: string, dir: string, report: RulesReport, display: (p: string) => string): Promise<string[]> {
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
async function readContained(root: string, path: string): Promise<string | 'absent' | 'outside'> {
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
    return text.length > MAX_FILE_CHARS ? `${text.slice(0, MAX_FILE_CHARS)}\n[… truncated at ${MAX_FILE_CHARS} characters]` : text
  } finally {
    await handle.close()
  }
}

const isInside = (root: string, real: string): boolean => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep)
