const STORAGE_KEY = 'modus-token'

const tokenInFragment = (): string | null => new URLSearchParams(location.hash.slice(1)).get('token')

/**
 * The web host's token arrives in the URL fragment, which the browser never sends to any server.
 * It is taken once, removed from the address bar (and so from history and screenshots), and kept in
 * this tab's session storage, which is per origin — another local port cannot read it — so a reload
 * still works.
 */
export function takePageToken(): string | null {
  const token = readPageToken()
  dropTokenFromAddress()
  if (token) rememberPageToken(token)
  return token
}

/** The token, from the fragment or from earlier in this tab, without writing anything. */
export function readPageToken(): string | null {
  return tokenInFragment() ?? sessionStorage.getItem(STORAGE_KEY)
}

/** Takes the token out of the address bar (and history). */
export function dropTokenFromAddress(): void {
  if (tokenInFragment()) history.replaceState(history.state, '', location.pathname + location.search)
}

/**
 * Keeps the token for a reload. The early script leaves this to the app, after its first screen: a
 * tab's first session-storage write waits on the browser process, which is busy loading the page
 * (up to ~95 ms measured on this VM under load).
 */
export function rememberPageToken(token: string): void {
  sessionStorage.setItem(STORAGE_KEY, token)
}
