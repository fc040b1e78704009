import type { ComponentType } from 'react'
import { ChatView } from './features/chat/ChatView'
import { ProviderSettings } from './features/settings/ProviderSettings'

/**
 * The app's main views, shown in the navigation in this order. Each feature adds its own entry;
 * `badge` is a hook returning a count to show next to the label (e.g. pending approvals).
 */
export interface AppView {
  id: string
  label: string
  /** Keyboard shortcut with Alt (Alt+1 … Alt+9), by position. */
  component: ComponentType
  badge?: () => number
}

export const appViews: AppView[] = [
  { id: 'chat', label: 'Chat', component: ChatView },
  { id: 'settings', label: 'Settings', component: SettingsView }
]

function SettingsView() {
  return (
    <section className="settings-panel" aria-label="Settings">
      <h1>Provider</h1>
      <ProviderSettings />
    </section>
  )
}
