const STORAGE_KEY = 'modus.reviews-in-progress'
const SAVE_AFTER_MS = 300

/** The reviews this tab had in progress before a reload; unchecked (see `restoreReview`). */
export function loadSavedReviews(): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}')
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

let pending: (() => Record<string, unknown>) | null = null
let timer: ReturnType<typeof setTimeout> | null = null

/** Saves the reviews after a short pause (typing saves once), and at once when the page goes away. */
export function saveReviews(current: () => Record<string, unknown>): void {
  pending = current
  if (timer === null) timer = setTimeout(flush, SAVE_AFTER_MS)
}

function flush(): void {
  if (timer !== null) clearTimeout(timer)
  timer = null
  if (!pending) return
  const reviews = pending()
  pending = null
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(reviews, withoutHunks))
  } catch {
    // Storage full or unavailable: the reviews still live for as long as the page does.
  }
}

// Hunks are recomputed from the saved text on restore, never read back.
function withoutHunks(key: string, value: unknown): unknown {
  return key === 'hunks' ? undefined : value
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flush)
