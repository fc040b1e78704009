import type { EventName, EventPayload } from '../../shared/contract'

export type EventListener = (name: EventName, payload: unknown) => void

/** Fan-out of contract events from the core to every connected surface (windows, tabs, CLI). */
export interface EventBus {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void
  subscribe(listener: EventListener): () => void
}

export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>()
  return {
    emit(name, payload) {
      for (const listener of listeners) {
        try {
          listener(name, payload)
        } catch {
          // A broken surface must not stop delivery to the others.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
