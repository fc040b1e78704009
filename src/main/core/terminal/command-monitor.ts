import type { ShellSession } from './shell-session'

/**
 * Watches a running command: is it blocked reading the terminal (Linux: a foreground process
 * sleeping in a tty read on the pty), or only quiet (elsewhere: silence alone, reported as a
 * suspicion)? Checks only after a quiet period, so a chatty command costs nothing.
 */
export interface InputWaitState {
  /** Since when it has been waiting (reset when output or user input arrives). */
  since: number | null
  /** The blocked process; null when only silence suggests it. */
  pid: number | null
  /** True when the platform cannot see tty reads and the state comes from silence alone. */
  inferred: boolean
}

export interface CommandMonitorOptions {
  session: ShellSession
  lastActivityAt: () => number
  quietMs: number
  /** Without /proc: how long silence must last before we call it a possible input wait. */
  inferredQuietMs: number
  intervalMs: number
  onChange: (state: InputWaitState) => void
  /** Runs on every tick (hard limit checks, pid refresh). */
  onTick?: () => void
}

export function startCommandMonitor(options: CommandMonitorOptions): { stop(): void; state(): InputWaitState } {
  let current: InputWaitState = { since: null, pid: null, inferred: false }
  let busy = false
  let stopped = false

  const set = (next: InputWaitState): void => {
    const changed = (next.since === null) !== (current.since === null) || next.pid !== current.pid
    current = next
    if (changed) options.onChange(current)
  }

  const tick = async (): Promise<void> => {
    options.onTick?.()
    if (busy || stopped) return
    const quiet = Date.now() - options.lastActivityAt()
    if (quiet < options.quietMs) {
      if (current.since !== null) set({ since: null, pid: null, inferred: false })
      return
    }
    busy = true
    try {
      const reader = await options.session.inputReader()
      if (stopped) return
      if (reader === undefined) {
        if (quiet >= options.inferredQuietMs) set({ since: current.since ?? Date.now(), pid: null, inferred: true })
      } else if (reader === null) {
        if (current.since !== null) set({ since: null, pid: null, inferred: false })
      } else {
        set({
          since: current.pid === reader && current.since !== null ? current.since : Date.now(),
          pid: reader,
          inferred: false
        })
      }
    } finally {
      busy = false
    }
  }

  const timer = setInterval(() => void tick(), options.intervalMs)
  return {
    stop() {
      stopped = true
      clearInterval(timer)
    },
    state: () => current
  }
}
