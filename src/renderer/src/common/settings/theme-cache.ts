import type { ThemePreference } from '../../../../shared/contract/settings'

/**
 * `system` leaves the colours to the OS (the stylesheet's prefers-color-scheme); light and dark set
 * `data-theme` on the root element, which the theme stylesheet gives precedence.
 */
export function applyTheme(root: HTMLElement, theme: ThemePreference): void {
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
}

/** The theme the root element shows now. */
export const shownTheme = (root: HTMLElement): ThemePreference =>
  root.dataset.theme === 'light' || root.dataset.theme === 'dark' ? root.dataset.theme : 'system'

const THEME_CACHE_KEY = 'modus.theme'

/**
 * The last theme seen, so the first paint after a start is already in the user's colours. A tab's
 * first storage read waits on the browser process: in a browser the early script makes it, while
 * the app's own script is still loading.
 */
export function applyCachedTheme(root: HTMLElement): void {
  try {
    const value = localStorage.getItem(THEME_CACHE_KEY)
    applyTheme(root, value === 'light' || value === 'dark' ? value : 'system')
  } catch {
    applyTheme(root, 'system')
  }
}

export function cacheTheme(theme: ThemePreference): void {
  try {
    localStorage.setItem(THEME_CACHE_KEY, theme)
  } catch {
    // Storage can be unavailable (private mode); the settings still decide once loaded.
  }
}
