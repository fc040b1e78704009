import { useEffect, useState, type ReactNode } from 'react'
import { useClient } from './client/client-context'
import { useConnectionStore } from './client/connection-store'
import { bindChatEvents, resyncChat } from './features/chat/bind-chat-events'
import { ChatView } from './features/chat/ChatView'
import { ProviderSettings } from './features/settings/ProviderSettings'
import { useSettingsStore } from './features/settings/settings-store'
import { WorkspacePicker } from './features/workspace/WorkspacePicker'
import { useWorkspaceStore } from './features/workspace/workspace-store'
import type { SettingsView } from '../../shared/contract/settings'
import type { WorkspaceInfo } from '../../shared/contract/workspace'

export function App(): ReactNode {
  const client = useClient()
  const connection = useConnectionStore((state) => state.state)
  const generation = useConnectionStore((state) => state.generation)
  const workspace = useWorkspaceStore((state) => state.current)
  const hasProvider = useSettingsStore((state) => Boolean(state.settings?.activeProviderId))
  const [showSettings, setShowSettings] = useState(false)

  useEffect(() => {
    const unbind = bindChatEvents(client)
    const unbindOther = client.subscribe((name, payload) => {
      if (name === 'workspace:opened') useWorkspaceStore.getState().setCurrent(payload as WorkspaceInfo)
      if (name === 'settings:changed') useSettingsStore.getState().setSettings(payload as SettingsView)
    })
    return () => {
      unbind()
      unbindOther()
    }
  }, [client])

  // On every (re)connect, the core is the source of truth.
  useEffect(() => {
    if (connection !== 'open') return
    void client.request('workspace:current', {}).then((r) => r.ok && useWorkspaceStore.getState().setCurrent(r.value))
    void client.request('settings:get', {}).then((r) => r.ok && useSettingsStore.getState().setSettings(r.value))
    void resyncChat(client)
  }, [client, connection, generation])

  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">Modus</span>
        {workspace && <span className="workspace-name" title={workspace.root}>{workspace.name}</span>}
        <span className={`connection connection-${connection}`} aria-live="polite">
          {connection === 'open' ? '' : connection === 'connecting' ? 'Connecting…' : 'Disconnected — retrying'}
        </span>
        {workspace && (
          <button type="button" onClick={() => setShowSettings((shown) => !shown)} aria-expanded={showSettings}>
            Settings
          </button>
        )}
      </header>
      <main className="app-main">
        {!workspace ? (
          <WorkspacePicker />
        ) : showSettings || !hasProvider ? (
          <section className="settings-panel" aria-label="Settings">
            <h1>Provider</h1>
            <ProviderSettings onSaved={() => setShowSettings(false)} />
          </section>
        ) : (
          <ChatView />
        )}
      </main>
    </div>
  )
}
