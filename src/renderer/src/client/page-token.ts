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
  keepPageToken()
  return token
}

/**
 * The token without keeping it, for the early script to open its socket first: storage and history
 * are synchronous calls into the browser (several ms each on a busy machine).
 */
export function readPageToken(): string | null {
  return tokenInFragment() ?? sessionStorage.getItem(STORAGE_KEY)
}

/** Moves the fragment's token (if any) into session storage and out of the address bar. */
export function keepPageToken(): void {
  const fromFragment = tokenInFragment()
  if (!fromFragment) return
  sessionStorage.setItem(STORAGE_KEY, fromFragment)
  history.replaceState(history.state, '', location.pathname + location.search)
}
