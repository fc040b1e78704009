import { z } from 'zod'
import { ApprovalKind } from '../agent/events'
import { request } from './define'

/** One hunk of a staged change, as the review shows it and as a decision names it. */
export const HunkView = z.object({
  /** Stable within one proposal (`h1`, `h2`, … in file order). */
  id: z.string(),
  oldStart: z.number(),
  oldLines: z.number(),
  newStart: z.number(),
  newLines: z.number(),
  /** Unified-diff lines of the hunk (`+`, `-`, ` ` prefixes). */
  lines: z.array(z.string())
})
export type HunkView = z.infer<typeof HunkView>

export const ChangeView = z.object({
  id: z.string(),
  taskId: z.string(),
  callId: z.string(),
  path: z.string(),
  operation: z.enum(['create', 'modify', 'delete', 'move']),
  newPath: z.string().optional(),
  /** null for a created file. */
  original: z.string().nullable(),
  /** null for a deleted file. */
  proposed: z.string().nullable(),
  hunks: z.array(HunkView),
  status: z.enum(['proposed', 'applied', 'partially-applied', 'rejected', 'reverted', 'failed']),
  /** True when the policy allowed it without review. */
  auto: z.boolean(),
  /** Why it could not be written as reviewed, e.g. the file changed on disk since the proposal. */
  conflict: z.string().optional(),
  /** Once written: how many of the hunks the review accepted, and whether the user edited the text. */
  acceptedHunks: z.number().int().optional(),
  editedByUser: z.boolean().optional(),
  /** Once written: exactly what reached the disk (after rejected hunks and the user's edits; null: deleted). */
  written: z.string().nullable().optional(),
  /** The tool that proposed it (`write_to_file`, `restore_checkpoint`, `revert_change`, or a command). */
  tool: z.string().optional(),
  /** Changes a command made (seen by the checkpoints' snapshots), listed beside the edits; never staged. */
  byCommand: z.string().optional(),
  createdAt: z.number()
})
export type ChangeView = z.infer<typeof ChangeView>

/** "Always allow in this mode": the narrowest rule the policy suggests for this call. */
export const SuggestedRule = z.object({
  /** Opaque to the UI; handed back unchanged in the decision. */
  rule: z.unknown(),
  /** What the user confirms, e.g. `Allow command "npm test" in Code mode`. */
  label: z.string(),
  /** Where the rule is written when not in the mode (an MCP tool: its server's config file). */
  savedIn: z.string().optional()
})
export type SuggestedRule = z.infer<typeof SuggestedRule>

export const ApprovalItem = z.object({
  id: z.string(),
  taskId: z.string(),
  taskTitle: z.string(),
  kind: ApprovalKind,
  mode: z.string(),
  callId: z.string().optional(),
  /** The assistant message the call came from: "approve the whole turn" applies to its later calls. */
  messageId: z.string().optional(),
  /** How many calls of the same message come after this one (0: the turn buttons have nothing to add). */
  laterInTurn: z.number().int().optional(),
  tool: z.string().optional(),
  args: z.unknown().optional(),
  summary: z.string(),
  /** Which rule or toggle asked, and why — "why was I asked". */
  rule: z.string(),
  reason: z.string(),
  /** For `edit` items: the staged proposal to review hunk by hunk. */
  changes: z.array(ChangeView).optional(),
  suggestedRule: SuggestedRule.optional(),
  createdAt: z.number()
})
export type ApprovalItem = z.infer<typeof ApprovalItem>

export const ChangeDecision = z
  .object({
    changeId: z.string(),
    /** Ids of the hunks to write; omitted = all of them. */
    acceptedHunks: z.array(z.string()).optional(),
    /** The proposed side as the user edited it; written instead of the model's text. */
    editedContent: z.string().max(20_000_000).optional()
  })
  .strict()
export type ChangeDecision = z.infer<typeof ChangeDecision>

export const ApprovalDecision = z
  .object({
    approvalId: z.string(),
    outcome: z.enum(['approve', 'reject']),
    /** Reject: the reason given to the model. Approve: feedback or guidance passed along. */
    reason: z.string().max(20_000).optional(),
    /** `turn`: the same answer for the remaining calls of this assistant message. */
    scope: z.enum(['call', 'turn']).default('call'),
    changes: z.array(ChangeDecision).optional(),
    /** Confirmed "always allow in this mode": the suggested rule, saved to the mode. */
    alwaysAllow: z.unknown().optional(),
    /** With `alwaysAllow` on a single command rule: one of its widenings (`ruleWidenings`) to save instead. */
    widenTo: z.string().max(4000).optional(),
    /** Reject: nobody was asked (a non-interactive run); the model is told it was not approved, not that someone denied it. */
    unattended: z.literal(true).optional()
  })
  .strict()
export type ApprovalDecision = z.infer<typeof ApprovalDecision>

export const approvalsRequests = {
  /** Every pending item across all running tasks. */
  'approvals:list': request(z.object({}).strict(), z.array(ApprovalItem)),
  'approvals:decide': request(ApprovalDecision, z.object({ resolved: z.boolean() }))
}

export const approvalsEvents = {
  'approvals:changed': z.array(ApprovalItem)
}
