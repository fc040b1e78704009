import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { ClientProvider } from './client/client-context'
import { createClient } from './client/create-client'
import { createFirstScreen } from './client/first-screen'
import { syncWithCore } from './sync-with-core'
import './styles.css'

const firstScreen = createFirstScreen()
const client = createClient(firstScreen)
// Before the first render, so answers the early socket already holds are in the stores when it runs.
syncWithCore(client)

// A task later, as React's root rendered; Preact's renders at once, before the early answers' promises
// have settled into the stores, so a returning user saw the folder picker before the chat.
setTimeout(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ClientProvider client={client}>
        <App onFirstScreen={firstScreen.shown} />
      </ClientProvider>
    </StrictMode>
  )
)
