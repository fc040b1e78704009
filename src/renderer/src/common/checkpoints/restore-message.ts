import type { RestoreSummary } from '../../../../shared/contract/checkpoints'

/** One sentence on what a restore did and what waits in the review. */
export function describeRestore(summary: RestoreSummary): string {
  const parts: string[] = []
  if (summary.proposed === 0 && summary.restored.length === 0 && summary.notRestored.length === 0) {
    return 'The files are already as they were before this turn.'
  }
  if (summary.proposed > 0) {
    const conflicts = summary.conflicts > 0 ? `, ${summary.conflicts} changed since and left unticked` : ''
    parts.push(`${summary.proposed} file${summary.proposed === 1 ? '' : 's'} to review in Approvals${conflicts}.`)
  }
  if (summary.restored.length > 0) parts.push(`Restored ${summary.restored.join(', ')}.`)
  for (const file of summary.notRestored) parts.push(`Not restored: ${file.path} (${file.reason}).`)
  return parts.join(' ')
}

/** "Restored 2 files to before “Build it”" / "Reverted the change to src/a.ts". */
export function restoredTitle(how: 'restore' | 'revert', label: string, files: number): string {
  if (how === 'revert') return `Reverted the change to ${label}`
  return `Restored ${files} file${files === 1 ? '' : 's'} to before “${label}”`
}
