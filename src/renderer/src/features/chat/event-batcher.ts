import type { AgentEvent } from '../../../../shared/agent/events'

export interface EventBatcher<T = AgentEvent> {
  push(taskId: string, event: T): void
  /** Applies everything queued now (before a task summary update, or on dispose). */
  flush(): void
  dispose(): void
}

type Schedule = (run: () => void) => void

const defaultSchedule: Schedule = (run) => {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && !document.hidden) {
    requestAnimationFrame(run)
  } else setTimeout(run, 16)
}

/** Collects streamed events and hands them over once per frame, in order, grouped by task. */
export function createEventBatcher<T = AgentEvent>(
  apply: (taskId: string, events: T[]) => void,
  schedule: Schedule = defaultSchedule
): EventBatcher<T> {
  let queue: Array<{ taskId: string; event: T }> = []
  let scheduled = false
  let disposed = false
  const flush = (): void => {
    scheduled = false
    if (queue.length === 0) return
    const pending = queue
    queue = []
    // Consecutive runs of the same task keep the global order across tasks.
    let start = 0
    for (let i = 1; i <= pending.length; i++) {
      if (i === pending.length || pending[i].taskId !== pending[start].taskId) {
        apply(
          pending[start].taskId,
          pending.slice(start, i).map((entry) => entry.event)
        )
        start = i
      }
    }
  }
  return {
    push(taskId, event) {
      if (disposed) return
      queue.push({ taskId, event })
      if (!scheduled) {
        scheduled = true
        schedule(() => {
          if (!disposed) flush()
        })
      }
    },
    flush,
    dispose() {
      flush()
      disposed = true
    }
  }
}
