import { promises as fs } from 'node:fs'
import { join, relative } from 'node:path'

const MAX_FILE_CHARS = 20_000
const MAX_FILES_PER_DIR = 50

export interface RulesFile {
  /** Workspace-relative path, shown to the model so it knows where a rule comes from. */
  path: string
  content: string
}

/**
 * The project's instructions for a mode, in a fixed order: general rules, then the mode's own,
 * Modus's folders before Roo's, then AGENTS.md. Files are read as text; none of them grants
 * permissions (those need the workspace to be trusted, and live in modes files).
 */
export async function loadRulesFiles(workspace: string, modeSlug: string): Promise<RulesFile[]> {
  const sources: Array<{ dir?: string; file?: string }> = [
    { dir: '.modus/rules' },
    { dir: `.modus/rules-${modeSlug}` },
    { dir: '.roo/rules' },
    { dir: `.roo/rules-${modeSlug}` },
    { file: '.roorules' },
    { file: `.roorules-${modeSlug}` },
    { file: 'AGENTS.md' }
  ]
  const found: RulesFile[] = []
  for (const source of sources) {
    const paths = source.dir ? await filesUnder(join(workspace, source.dir)) : [join(workspace, source.file ?? '')]
    for (const path of paths) {
      const content = await readText(path)
      if (content?.trim()) found.push({ path: relative(workspace, path).split('\\').join('/'), content: content.trim() })
    }
  }
  return found
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))
    .sort()
    .slice(0, MAX_FILES_PER_DIR)
}

async function readText(path: string): Promise<string | null> {
  const stat = await fs.stat(path).catch(() => null)
  if (!stat?.isFile()) return null
  const buffer = await fs.readFile(path).catch(() => null)
  if (!buffer || buffer.includes(0)) return null
  const text = buffer.toString('utf8')
  return text.length > MAX_FILE_CHARS ? `${text.slice(0, MAX_FILE_CHARS)}\n[… truncated at ${MAX_FILE_CHARS} characters]` : text
}
