/** Without frames (a tab opened in the background paints nothing), or if the app never says, still go on, later. */
const BACKGROUND_FALLBACK_MS = 3000

/**
 * The moment the first screen shows the core's answers (the chat and its composer, or the picker),
 * and a way to run work once the browser is idle after that screen's paint. The first paint alone
 * is too early: it shows the page before the answers, and work started in the idle time while the
 * answers travel lands between them and the screen they complete.
 */
export interface FirstScreen {
  /** The app calls this once its first screen holds the core's answers (its paint follows). */
  shown(): void
  /** Runs `start` once, when the browser is idle after that paint. */
  whenIdleAfter(start: () => void): void
}

export function createFirstScreen(): FirstScreen {
  let isShown = false
  const waiting: Array<() => void> = []
  const afterPaint = (start: () => void): void => {
    const whenIdle = (): void => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 2000 })
      else setTimeout(start, 0)
    }
    requestAnimationFrame(() => requestAnimationFrame(whenIdle))
  }
  return {
    shown() {
      if (isShown) return
      isShown = true
      for (const start of waiting.splice(0)) afterPaint(start)
    },
    whenIdleAfter(start) {
      let started = false
      const once = (): void => {
        if (started) return
        started = true
        start()
      }
      if (isShown) afterPaint(once)
      else waiting.push(once)
      setTimeout(once, BACKGROUND_FALLBACK_MS)
    }
  }
}
