import type { ReactNode } from 'react'

/**
 * What a tab shows when the web host refuses its token: most often the host was restarted (each
 * start makes a new token), so this tab's address is out of date. It says what to do, in the app's
 * own look, instead of a bare line.
 */
export function NeedsTokenPage(): ReactNode {
  return (
    <main className="app-main">
      <section className="notice-page" role="alert" aria-labelledby="needs-token-title">
        <h1 id="needs-token-title">This tab needs a new address</h1>
        <p>Modus: this address needs the token printed when the server started.</p>
        <p className="note">
          The server was probably restarted: each start makes a new token, so an older tab cannot connect. Open the
          address it printed (it ends in <code>#token=…</code>), or run <code>modus serve</code> again and open the new
          one.
        </p>
      </section>
    </main>
  )
}
