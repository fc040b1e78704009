import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-write'
import type { ModeConfig } from '../../../shared/modes/schema'

/** Per folder (real path), per slug: the sha256 of the project mode exactly as the user saved it. */
const OwnSavesFile = z.object({ workspaces: z.record(z.string(), z.record(z.string(), z.string())) })
type OwnSavesFile = z.infer<typeof OwnSavesFile>

/**
 * The project modes the user saved or imported in the app. A mode the user saved is their own
 * grant, not the project's; the record lives in the user's data dir (a cloned repository cannot
 * write it) and names the mode's content, so a later change by anyone else to that mode in the
 * file makes it the project's again, and the trust prompt lists it.
 */
export interface OwnSaves {
  /** Slugs whose mode in the file is exactly what the user saved. */
  ownSlugs(root: string, modes: readonly ModeConfig[]): Promise<Set<string>>
  /** Records these modes (as written and read back) as the user's own; `forget` drops slugs. */
  record(root: string, modes: readonly ModeConfig[], forget?: readonly string[]): Promise<void>
  /** Every record of one folder is dropped (the user revoked what they granted there). */
  forgetFolder(root: string): Promise<void>
}

/** The identity of a mode's content: key order and Roo's ignored `source` do not count. */
export function modeHash(mode: ModeConfig): string {
  const { source: _source, ...rest } = mode
  return createHash('sha256').update(canonicalJson(rest)).digest('hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function createOwnSaves(dataDir: string): OwnSaves {
  const file = join(dataDir, 'own-project-modes.json')
  // A missing or damaged record grants nothing: every project mode is then the project's.
  const read = async (): Promise<OwnSavesFile> => {
    try {
      const parsed = OwnSavesFile.safeParse(JSON.parse(await fs.readFile(file, 'utf8')))
      return parsed.success ? parsed.data : { workspaces: {} }
    } catch {
      return { workspaces: {} }
    }
  }
  const writeFolder = async (
    root: string,
    change: (saved: Record<string, string>) => Record<string, string>
  ): Promise<void> => {
    const state = await read()
    const next = change({ ...(state.workspaces[root] ?? {}) })
    const workspaces = { ...state.workspaces, [root]: next }
    if (Object.keys(next).length === 0) delete workspaces[root]
    await writeFileAtomic(file, JSON.stringify({ workspaces }, null, 2))
  }
  return {
    async ownSlugs(root, modes) {
      const saved = (await read()).workspaces[root] ?? {}
      return new Set(modes.filter((mode) => saved[mode.slug] === modeHash(mode)).map((mode) => mode.slug))
    },
    record: (root, modes, forget = []) =>
      writeFolder(root, (saved) => {
        for (const slug of forget) delete saved[slug]
        for (const mode of modes) saved[mode.slug] = modeHash(mode)
        return saved
      }),
    forgetFolder: (root) => writeFolder(root, () => ({}))
  }
}
