import { z } from 'zod'
import { ChangeView } from './approvals'
import { request } from './define'

/** A task's file changes (reviewed or auto-applied) with their diffs; each can be reverted. */
export const reviewRequests = {
  'changes:list': request(z.object({ taskId: z.string() }).strict(), z.array(ChangeView)),
  'changes:revert': request(z.object({ taskId: z.string(), changeId: z.string() }).strict(), ChangeView)
}

export const reviewEvents = {
  'changes:updated': z.object({ taskId: z.string(), change: ChangeView })
}
