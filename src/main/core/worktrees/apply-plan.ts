import { applySelectedHunks, computeHunks, hunksReachingDisk, rebaseHunks, type Hunk } from '../../../shared/diff/hunks'
import { detectLineEnding, toLf, withLineEnding } from '../../../shared/diff/text'
import type { BranchFile } from './apply-read'

/** The review's answer for one file: which hunks to bring back (all when omitted), or the text as the user edited it. */
export interface FileDecision {
  path: string
  acceptedHunks?: string[]
  editedContent?: string
}

export interface FileConflict {
  path: string
  /** The hunks not written (ids of `hunksOf(file)`); empty when the whole file conflicts. */
  hunks: string[]
  reason: string
}

/** What "Apply to my working tree" will do: the main tree's files to write (null: delete), and what it leaves. */
export interface ApplyPlan {
  writes: Array<{ path: string; content: string | null; expectedMain: string | null }>
  conflicts: FileConflict[]
}

/** The hunks the review shows for a file: its base text against the task's text. */
export const hunksOf = (file: Pick<BranchFile, 'base' | 'branch'>): Hunk[] =>
  computeHunks(toLf(file.base ?? ''), toLf(file.branch ?? ''))

/**
 * Hunks of the task's change that touch lines the user changed locally since the base commit: the
 * main tree differs from the base where the hunk changes it. They are never written.
 */
export function conflictingHunks(file: BranchFile): string[] {
  if (file.main === null || file.base === null) return []
  return hunksReachingDisk(toLf(file.base), hunksOf(file), toLf(file.main))
}

/** Plans every decided file; files the review did not name are left alone. */
export function planApply(files: readonly BranchFile[], decisions: readonly FileDecision[]): ApplyPlan {
  const plan: ApplyPlan = { writes: [], conflicts: [] }
  const byPath = new Map(files.map((file) => [file.path, file]))
  for (const decision of decisions) {
    const file = byPath.get(decision.path)
    if (!file) {
      plan.conflicts.push({ path: decision.path, hunks: [], reason: 'The task did not change this file.' })
      continue
    }
    planFile(decision.editedContent === undefined ? file : { ...file, branch: decision.editedContent }, decision, plan)
  }
  return plan
}

function planFile(file: BranchFile, decision: FileDecision, plan: ApplyPlan): void {
  const whole = (reason: string): void => void plan.conflicts.push({ path: file.path, hunks: [], reason })
  if (file.binary) return whole('A binary file or link is not merged here: use "Merge branch".')
  const hunks = hunksOf(file)
  const accepted = new Set(
    decision.editedContent !== undefined ? hunks.map((h) => h.id) : (decision.acceptedHunks ?? hunks.map((h) => h.id))
  )
  if (accepted.size === 0) return
  if (file.base === null || file.branch === null) return planWholeFile(file, plan, whole)
  if (file.main === null) return whole('You deleted this file in your working tree.')
  const blocked = new Set(conflictingHunks(file))
  const wanted = hunks.filter((hunk) => accepted.has(hunk.id))
  const clear = wanted.filter((hunk) => !blocked.has(hunk.id))
  const conflicted = wanted.filter((hunk) => blocked.has(hunk.id)).map((hunk) => hunk.id)
  const content = clear.length > 0 ? mergeInto(file, hunks, clear, conflicted) : null
  if (conflicted.length > 0)
    plan.conflicts.push({ path: file.path, hunks: conflicted, reason: 'You changed these lines in your working tree.' })
  if (content !== null) plan.writes.push({ path: file.path, content, expectedMain: file.main })
}

/** A created or deleted file goes across whole, only where the main tree still has the base version. */
function planWholeFile(file: BranchFile, plan: ApplyPlan, whole: (reason: string) => void): void {
  if (file.base === null) {
    if (file.main !== null && toLf(file.main) !== toLf(file.branch ?? ''))
      return whole('A different file of this name exists in your working tree.')
    if (file.main === null) plan.writes.push({ path: file.path, content: file.branch, expectedMain: null })
    return
  }
  if (file.main === null) return
  if (toLf(file.main) !== toLf(file.base)) return whole('The task deleted this file, which you changed locally.')
  plan.writes.push({ path: file.path, content: null, expectedMain: file.main })
}

/**
 * The main tree's text with the clear hunks applied. Unchanged locally: straight from the base.
 * Changed elsewhere: each hunk is placed by its lines and context; one that no longer fits becomes
 * a conflict too (its id is added to `conflicted`).
 */
function mergeInto(file: BranchFile, hunks: Hunk[], clear: Hunk[], conflicted: string[]): string | null {
  const main = file.main!
  const eol = detectLineEnding(main)
  if (toLf(main) === toLf(file.base!)) {
    return withLineEnding(applySelectedHunks(toLf(main), hunks, new Set(clear.map((h) => h.id))), eol)
  }
  let remaining = clear
  for (;;) {
    const rebased = rebaseHunks(toLf(main), remaining)
    if (rebased.ok) return withLineEnding(rebased.content, eol)
    conflicted.push(...rebased.conflicts)
    remaining = remaining.filter((hunk) => !rebased.conflicts.includes(hunk.id))
    if (remaining.length === 0) return null
  }
}
