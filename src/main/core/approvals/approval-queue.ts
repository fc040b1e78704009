import { randomUUID } from 'node:crypto'
import type { ApprovalDecision, ApprovalItem } from '../../../shared/contract/approvals'

export type ApprovalAnswer =
  (Omit<ApprovalDecision, 'approvalId'> & { outcome: 'approve' | 'reject' }) | { outcome: 'cancelled' }

export type ApprovalRequest = Omit<ApprovalItem, 'id' | 'createdAt'>

/**
 * Every pending approval across all running tasks (a task and its subtasks, tasks in several
 * windows). The loop awaits `answer`; the UI lists items and decides them.
 */
export interface ApprovalQueue {
  ask(request: ApprovalRequest): { item: ApprovalItem; answer: Promise<ApprovalAnswer> }
  list(): ApprovalItem[]
  get(id: string): ApprovalItem | undefined
  /** False when the item is gone (already decided, or its task was cancelled). */
  decide(decision: ApprovalDecision): boolean
  /** Resolves every pending item of a task as cancelled (cancel, delete). */
  cancelTask(taskId: string): void
  subscribe(listener: (items: ApprovalItem[]) => void): () => void
}

export function createApprovalQueue(options: { now?: () => number } = {}): ApprovalQueue {
  const now = options.now ?? Date.now
  const pending = new Map<string, { item: ApprovalItem; resolve: (answer: ApprovalAnswer) => void }>()
  const listeners = new Set<(items: ApprovalItem[]) => void>()
  const list = () => [...pending.values()].map((entry) => entry.item)
  const notify = () => {
    const items = list()
    for (const listener of listeners) {
      try {
        listener(items)
      } catch {
        // One broken listener must not stop the others.
      }
    }
  }
  const settle = (id: string, answer: ApprovalAnswer) => {
    const entry = pending.get(id)
    if (!entry) return false
    pending.delete(id)
    entry.resolve(answer)
    notify()
    return true
  }
  return {
    ask(request) {
      const item: ApprovalItem = { ...request, id: randomUUID(), createdAt: now() }
      const answer = new Promise<ApprovalAnswer>((resolve) => pending.set(item.id, { item, resolve }))
      notify()
      return { item, answer }
    },
    list,
    get: (id) => pending.get(id)?.item,
    decide: ({ approvalId, ...answer }) => settle(approvalId, answer),
    cancelTask(taskId) {
      for (const entry of [...pending.values()]) {
        if (entry.item.taskId === taskId) settle(entry.item.id, { outcome: 'cancelled' })
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
