import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import type { LiveTask, LiveTasks } from '../../../src/main/core/tasks/live-tasks'
import { createSubtasks, type Subtasks } from '../../../src/main/core/tasks/subtasks'
import type { TaskSession } from '../../../src/main/core/ports/task-session'

/** A parent session that only records what it shows in its chat. */
function parentSession(): TaskSession & { shown: AgentEvent[] } {
  const shown: AgentEvent[] = []
  const meta = { id: 'parent', title: 'p', mode: 'orchestrator', workspace: '/w', createdAt: 0 }
  return { id: 'parent', meta, shown, emit: (event: AgentEvent) => shown.push(event) } as unknown as TaskSession & {
    shown: AgentEvent[]
  }
}

/** Subtasks whose isolated child runs to its end before its start reaches the parent. */
function subtasksWithChildEndingAtOnce(status: 'completed' | 'failed'): Subtasks {
  const child = { session: { id: 'child', meta: { parentId: 'parent' } } } as unknown as LiveTask
  const tasks = { get: (id: string) => (id === 'child' ? child : undefined) } as unknown as LiveTasks
  const subtasks: Subtasks = createSubtasks({
    tasks,
    now: () => 0,
    start: () => Promise.reject(new Error('not used')),
    resume: () => Promise.resolve(),
    cancel: () => Promise.resolve(),
    isolated: {
      async start() {
        subtasks.runEnded('child', { status, result: 'wrote shared.txt' })
        return 'child'
      },
      describe: () => Promise.resolve(null)
    }
  })
  return subtasks
}

const request = { callId: 'call-1', mode: 'code', message: 'write shared.txt', isolated: true }

describe('an isolated subtask that ends before its parent waits for it', () => {
  it('still hands its result to the parent, which shows it as completed', async () => {
    const parent = parentSession()
    const outcome = await subtasksWithChildEndingAtOnce('completed').run(parent, request, new AbortController().signal)

    expect(outcome).toMatchObject({ childId: 'child', status: 'completed', result: 'wrote shared.txt' })
    expect(parent.shown.map((e) => (e as { status?: string }).status)).toEqual(['started', 'completed'])
  })

  it('that failed leaves the parent waiting (a failed child can be retried), until the parent is cancelled', async () => {
    const parent = parentSession()
    const control = new AbortController()
    const running = subtasksWithChildEndingAtOnce('failed').run(parent, request, control.signal)
    await expect.poll(() => parent.shown.length).toBe(1)
    control.abort()

    expect(await running).toMatchObject({ childId: 'child', status: 'cancelled' })
  })
})
