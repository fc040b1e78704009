import { createContext, useContext, type ReactNode } from 'react'
import type { ModusClient } from '../../../shared/contract'

const ClientContext = createContext<ModusClient | null>(null)

export function ClientProvider({ client, children }: { client: ModusClient; children: ReactNode }): ReactNode {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>
}

/** The one typed client every feature talks through. */
export function useClient(): ModusClient {
  const client = useContext(ClientContext)
  if (!client) throw new Error('useClient outside <ClientProvider>')
  return client
}
