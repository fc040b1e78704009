import { promises as fs } from 'node:fs'
import { z } from 'zod'
import { WorktreeSettingsInput } from '../../../shared/contract/worktrees'
import { writeFileAtomic } from '../fs/atomic-write'

const RepoSettings = z.object({ copyFiles: z.array(z.string()), setupCommand: z.string() })
type RepoSettings = z.infer<typeof RepoSettings>

const SettingsFile = z.object({
  version: z.literal(1),
  maxConcurrent: z.number().int().min(1),
  pruneAfterDays: z.number().min(0),
  maxTotalMb: z.number().min(0),
  /** Per repository (its real top level): which ignored files to copy and the setup command. */
  repos: z.record(z.string(), RepoSettings)
})
type SettingsFile = z.infer<typeof SettingsFile>

export const DEFAULT_WORKTREE_SETTINGS = { maxConcurrent: 3, pruneAfterDays: 14, maxTotalMb: 10_240 } as const

export interface WorktreeSettingsStore {
  forRepo(repoRoot: string | null): WorktreeSettingsInput
  save(repoRoot: string | null, input: WorktreeSettingsInput): Promise<WorktreeSettingsInput>
  maxConcurrent(): number
}

/** `<dataDir>/worktrees/settings.json`: the user's own settings (never a project file's). */
export async function loadWorktreeSettings(file: string): Promise<WorktreeSettingsStore> {
  const text = await fs.readFile(file, 'utf8').catch(() => null)
  const loaded = SettingsFile.safeParse(parseOrNull(text))
  let current: SettingsFile = loaded.success ? loaded.data : { version: 1, ...DEFAULT_WORKTREE_SETTINGS, repos: {} }
  const none: RepoSettings = { copyFiles: [], setupCommand: '' }
  const store: WorktreeSettingsStore = {
    forRepo(repoRoot) {
      const repo = (repoRoot && Object.hasOwn(current.repos, repoRoot) ? current.repos[repoRoot] : undefined) ?? none
      return {
        copyFiles: [...repo.copyFiles],
        setupCommand: repo.setupCommand,
        maxConcurrent: current.maxConcurrent,
        pruneAfterDays: current.pruneAfterDays,
        maxTotalMb: current.maxTotalMb
      }
    },
    async save(repoRoot, input) {
      const repos = { ...current.repos }
      if (repoRoot) repos[repoRoot] = { copyFiles: input.copyFiles, setupCommand: input.setupCommand.trim() }
      current = {
        version: 1,
        maxConcurrent: input.maxConcurrent,
        pruneAfterDays: input.pruneAfterDays,
        maxTotalMb: input.maxTotalMb,
        repos
      }
      await writeFileAtomic(file, JSON.stringify(current, null, 2))
      return store.forRepo(repoRoot)
    },
    maxConcurrent: () => current.maxConcurrent
  }
  return store
}

function parseOrNull(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
