import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { ClientProvider } from './client/client-context'
import { createClient } from './client/create-client'
import './styles.css'

const client = createClient()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ClientProvider client={client}>
      <App />
    </ClientProvider>
  </StrictMode>
)
