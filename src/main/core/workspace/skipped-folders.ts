/** Why a walk did not enter a folder. */
export type SkipReason = 'built-in' | 'gitignore' | 'ignore-file'

export interface SkippedFolder {
  /** Workspace-relative POSIX path. */
  path: string
  reason: SkipReason
}

/** Names shown per reason; the rest are counted. */
const SHOWN_PER_REASON = 6

const REASON_WORDS: Record<SkipReason, string> = {
  'built-in': 'dependencies / version control, skipped by default',
  gitignore: 'named in .gitignore',
  'ignore-file': 'excluded by .modusignore / .rooignore'
}

/** Collects the folders a walk skipped, in walk order, each once. */
export function skippedCollector() {
  const seen = new Set<string>()
  const folders: SkippedFolder[] = []
  return {
    add(path: string, reason: SkipReason): void {
      if (seen.has(path)) return
      seen.add(path)
      folders.push({ path, reason })
    },
    list: (): SkippedFolder[] => folders
  }
}

/**
 * One line for the model: which folders a search or the index did not look into and why, so that
 * "no results" is never read as "the code does not exist". Null when nothing was skipped.
 */
export function describeSkipped(skipped: readonly SkippedFolder[]): string | null {
  if (skipped.length === 0) return null
  const parts: string[] = []
  for (const reason of Object.keys(REASON_WORDS) as SkipReason[]) {
    const paths = skipped.filter((s) => s.reason === reason).map((s) => `${s.path}/`)
    if (paths.length === 0) continue
    // What the ignore files hide stays hidden, its names too: only how many.
    if (reason === 'ignore-file') {
      parts.push(`${paths.length} folder${paths.length === 1 ? '' : 's'} ${REASON_WORDS[reason]}`)
      continue
    }
    const more = paths.length > SHOWN_PER_REASON ? ` and ${paths.length - SHOWN_PER_REASON} more` : ''
    parts.push(`${paths.slice(0, SHOWN_PER_REASON).join(', ')}${more} (${REASON_WORDS[reason]})`)
  }
  const pointInto = skipped.some((s) => s.reason !== 'ignore-file') ? ' Pass one as the path to search inside it.' : ''
  return `Skipped folders: ${parts.join('; ')}.${pointInto}`
}

/** Entries a search's side walk looks at for skipped folders (breadth first: the upper levels first). */
export const SKIP_WALK_LIMIT = 20_000
