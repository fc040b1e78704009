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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ClientProvider client={client}>
      <App onFirstScreen={firstScreen.shown} />
    </ClientProvider>
  </StrictMode>
)
