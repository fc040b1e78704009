import type { EventListener } from './index'

type Fanout = ReturnType<typeof import('./client-events').createEventFanout>
type FanoutModule = { createEventFanout: (report: (problem: string) => void) => Fanout }

/**
 * The renderer's event fanout, with the contract's schemas loaded after the first paint: building
 * every zod schema (and the policy engine the mode schema needs) is main-thread work the first
 * screen does not need. Events that arrive before the schemas are held and delivered in order once
 * they are in, each still parsed: no payload reaches a feature unchecked. `schedule` says when to
 * load them if nothing needs them sooner (the renderer: when idle after the first screen's paint); the first
 * event loads them at once. `nextTask` is the host's way to yield to its event loop (no host globals here).
 */
export function createLazyEventFanout(
  report: (problem: string) => void,
  {
    load = () => import('./client-events'),
    schedule = (start) => start(),
    nextTask
  }: {
    load?: () => Promise<FanoutModule>
    schedule?: (start: () => void) => void
    /** Runs `run` in a new task of the host's event loop (after every pending promise continuation). */
    nextTask: (run: () => void) => void
  }
) {
  const early = new Set<EventListener>()
  const moved = new Map<EventListener, () => void>()
  // Events and anything ordered behind them (request answers), run in arrival order once loaded.
  const held: Array<{ run: () => void; answer: boolean }> = []
  let fanout: Fanout | null = null

  /**
   * Runs what was held, in order. After an answer the rest waits for a new task, as each socket
   * message does: whoever awaited the answer (a task's replay) must act on it before the events
   * that came after it are stamped and applied, or they would count as already in the replay.
   */
  const drain = (): void => {
    while (held.length > 0) {
      const next = held.shift()!
      next.run()
      if (next.answer && held.length > 0) {
        nextTask(drain)
        return
      }
    }
  }

  let started = false
  const start = (): void => {
    if (started) return
    started = true
    void load().then(
      (module) => {
        const loaded = module.createEventFanout(report)
        for (const listener of early) moved.set(listener, loaded.subscribe(listener))
        early.clear()
        fanout = loaded
        drain()
      },
      (error: unknown) =>
        report(`The event schemas did not load: ${error instanceof Error ? error.message : String(error)}`)
    )
  }
  schedule(start)

  return {
    subscribe(listener: EventListener): () => void {
      if (fanout) return fanout.subscribe(listener)
      early.add(listener)
      return () => {
        early.delete(listener)
        moved.get(listener)?.()
        moved.delete(listener)
      }
    },
    deliver(name: string, payload: unknown): void {
      if (fanout && held.length === 0) return fanout.deliver(name, payload)
      held.push({ run: () => fanout?.deliver(name, payload), answer: false })
      start()
    },
    /**
     * Runs `then` after every event that arrived before it: a request's answer (say a task's
     * replay) must not overtake the held events it already contains, or they would apply twice.
     * With none held it runs at once: the first screen's answers (the workspace, the settings) do
     * not wait for the schemas, so they stay off the path to the first interactive paint.
     */
    inOrder(then: () => void): void {
      if (held.length === 0) then()
      else held.push({ run: then, answer: true })
    }
  }
}
