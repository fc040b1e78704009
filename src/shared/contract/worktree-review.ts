import { z } from 'zod'
import { ChangeDecision, ChangeView } from './approvals'
import { request } from './define'

export const WorktreeConflict = z.object({
  path: z.string(),
  /** Hunk ids not written; empty when the whole file was left alone. */
  hunks: z.array(z.string()),
  reason: z.string()
})
export type WorktreeConflict = z.infer<typeof WorktreeConflict>

export const ApplyOutcome = z.object({ written: z.array(z.string()), conflicts: z.array(WorktreeConflict) })
export type ApplyOutcome = z.infer<typeof ApplyOutcome>

/** What the Worktrees view proposes for a task's branch: merge it into the open branch, or open a pull request. */
export const WorktreeProposal = z.enum(['merge', 'pr'])
export type WorktreeProposal = z.infer<typeof WorktreeProposal>

export const ProposedCommand = z.object({
  /** The task that asks for the command (in the open folder, in the approval queue). */
  taskId: z.string(),
  command: z.string(),
  /** The task's uncommitted work was committed on its branch first (Modus's own commit on `modus/<slug>`). */
  committedWork: z.boolean()
})
export type ProposedCommand = z.infer<typeof ProposedCommand>

/** Bringing an isolated task's work back into the main working tree, through the review. */
export const worktreeReviewRequests = {
  /** The task's changes against its base commit (committed on its branch and uncommitted), one per file. */
  'worktree:changes': request(z.object({ taskId: z.string() }).strict(), z.array(ChangeView)),
  /** Writes the accepted hunks into the main tree; hunks on lines the user changed locally are never written. */
  'worktree:apply': request(
    z.object({ taskId: z.string(), changes: z.array(ChangeDecision).max(5000) }).strict(),
    ApplyOutcome
  ),
  /**
   * "Merge branch" / "Open a PR": the command is proposed as a task of its own in the open folder,
   * decided by the policy like any command (it asks; nothing runs without the user's answer).
   */
  'worktree:propose': request(z.object({ taskId: z.string(), action: WorktreeProposal }).strict(), ProposedCommand)
}
