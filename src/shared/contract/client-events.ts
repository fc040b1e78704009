import { events, type EventArgs, type EventListener, type EventName } from './index'

export type ParsedEvent = { ok: true; args: EventArgs } | { ok: false; error: string }

/** Checks an arriving event against the contract: a known name, and a payload its schema accepts. */
export function parseEvent(name: string, payload: unknown): ParsedEvent {
  if (!Object.hasOwn(events, name)) return { ok: false, error: `Unknown event "${name.slice(0, 80)}"` }
  const parsed = events[name as EventName].safeParse(payload)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return {
      ok: false,
      error: `Invalid "${name}" event: ${issue ? `${issue.path.join('.') || '(payload)'}: ${issue.message}` : 'bad payload'}`
    }
  }
  return { ok: true, args: [name, parsed.data] as EventArgs }
}

/**
 * The listeners of a client: every arriving event is parsed once and handed to each of them, so a
 * payload the contract does not allow never reaches a feature; `report` hears about it instead.
 */
export function createEventFanout(report: (problem: string) => void) {
  const listeners = new Set<EventListener>()
  return {
    subscribe(listener: EventListener): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    deliver(name: string, payload: unknown): void {
      const parsed = parseEvent(name, payload)
      if (!parsed.ok) return report(parsed.error)
      for (const listener of listeners) {
        try {
          listener(...parsed.args)
        } catch (error) {
          // One feature's failure must not keep the event from the others.
          report(`A listener of "${name}" failed: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    }
  }
}
