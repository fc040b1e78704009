import { z } from 'zod'
import { ChangeView } from './approvals'
import { request } from './define'

/** A task's file changes (reviewed or auto-applied) with their diffs; each can be reverted. */
export const reviewRequests = {
  'changes:list': request(z.object({ taskId: z.string() }).strict(), z.array(ChangeView)),
  /** Opens the review of undoing an accepted change (nothing is written until accepted there). */
  'changes:revert': request(
    z.object({ taskId: z.string(), changeId: z.string() }).strict(),
    z.object({ approvalId: z.string() })
  ),
  /** Pending changes whose file changed on disk since the proposal, checked now (the review warns before accepting). */
  'changes:check': request(
    z.object({ changeIds: z.array(z.string()).max(1000) }).strict(),
    z.array(z.object({ changeId: z.string(), conflict: z.boolean(), message: z.string() }))
  )
}

export const reviewEvents = {
  'changes:updated': z.object({ taskId: z.string(), change: ChangeView })
}
