const STORAGE_KEY = 'modus-token'

/**
 * The web host's token arrives in the URL fragment, which the browser never sends to any server.
 * It is taken once, removed from the address bar (and so from history and screenshots), and kept in
 * this tab's session storage, which is per origin — another local port cannot read it — so a reload
 * still works.
 */
export function takePageToken(): string | null {
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token')
  if (fromFragment) {
    sessionStorage.setItem(STORAGE_KEY, fromFragment)
    history.replaceState(history.state, '', location.pathname + location.search)
    return fromFragment
  }
  return sessionStorage.getItem(STORAGE_KEY)
}
