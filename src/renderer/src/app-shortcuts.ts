/**
 * The app's own keyboard shortcuts: Alt+1 … Alt+9 switch views by position. Kept in one place so
 * widgets that capture keys (the terminal) can hand them back to the app instead of swallowing them.
 */
export interface ShortcutKey {
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  key: string
  code: string
}

/** The view position (0-based) an Alt+digit press selects, or null when the key is not an app shortcut. */
export function viewShortcutIndex(event: ShortcutKey, viewCount = 9): number | null {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null
  // `code` keeps working where Alt+digit types another character (macOS Option+1 = "¡").
  const digit = /^Digit([1-9])$/.exec(event.code)?.[1] ?? (/^[1-9]$/.test(event.key) ? event.key : undefined)
  if (!digit) return null
  const index = Number(digit) - 1
  return index < viewCount ? index : null
}
