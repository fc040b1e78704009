import { useEffect, useState, type ReactNode } from 'react'
import { useClient } from './client/client-context'
import { useConnectionStore } from './client/connection-store'
import { routeEvents } from './client/event-router'
import { useChatStore } from './common/chat/chat-store'
import { IndexStatusItem } from './features/code-index/IndexStatusItem'
import { useSettingsStore } from './common/settings/settings-store'
import { TrustPrompt } from './features/workspace/TrustPrompt'
import { WorkspacePicker } from './features/workspace/WorkspacePicker'
import { useWorkspaceStore } from './common/workspace/workspace-store'
import { useNavigationStore } from './navigation-store'
import { appViews, preloadOtherViews, type AppView } from './views'
import { viewShortcutIndex } from './app-shortcuts'
import { composerField, focusWhenReady } from './components/focus-after'
import { wireDesktopNotices } from './common/desktop-notices'
import { noticesEnabled } from './common/notice-preference'
import { NeedsTokenPage } from './components/NeedsTokenPage'
import { Icon } from './components/icons'
import { lazyView } from './components/lazy-view'

// Shown once, after the first folder is opened: its code loads then, not with the app.
const providerSetup = lazyView(
  () => import('./features/settings/ProviderSettings').then((m) => m.ProviderSettings),
  'provider settings'
)

/** `onFirstScreen`: the screen with the core's answers is committed (work that can wait goes after its paint). */
export function App({ onFirstScreen }: { onFirstScreen?: () => void } = {}): ReactNode {
  const client = useClient()
  const connection = useConnectionStore((state) => state.state)
  const synced = useConnectionStore((state) => state.synced)
  const workspace = useWorkspaceStore((state) => state.current)
  const settingsLoaded = useSettingsStore((state) => state.settings !== null)
  const hasProvider = useSettingsStore((state) => Boolean(state.settings?.activeProviderId))
  const viewId = useNavigationStore((state) => state.viewId)
  const [switching, setSwitching] = useState(false)
  const setViewId = useNavigationStore((state) => state.show)
  const trustReopened = useWorkspaceStore((state) => state.trustPromptRequested)
  const setTrustReopened = useWorkspaceStore((state) => state.requestTrustPrompt)
  const grantsPending = Boolean(workspace && !workspace.trusted && workspace.projectGrants.length > 0)
  // Asked unprompted when the project grants something unanswered; on request whenever untrusted.
  const showTrustPrompt =
    Boolean(workspace && !workspace.trusted) && ((grantsPending && !workspace!.trustAnswered) || trustReopened)

  useEffect(() => routeEvents(client), [client])

  // A task waiting for approval, done or failed notifies, unless it is the one on screen.
  useEffect(
    () =>
      wireDesktopNotices(client, {
        Notification: typeof Notification === 'undefined' ? undefined : Notification,
        hasFocus: () => document.hasFocus(),
        shownTaskId: () =>
          useNavigationStore.getState().viewId === 'chat' ? useChatStore.getState().activeTaskId : null,
        enabled: () => noticesEnabled(),
        desktopApp: Boolean(window.modus),
        open: (taskId) => {
          window.focus()
          void useChatStore
            .getState()
            .openTask(client, taskId)
            .then(() => useNavigationStore.getState().show('chat'))
        }
      }),
    [client]
  )

  useEffect(() => {
    if (synced) onFirstScreen?.()
  }, [synced, onFirstScreen])

  // The other views' code is fetched when the browser is idle after the first screen is up.
  useEffect(() => {
    if (settingsLoaded) preloadOtherViews()
  }, [settingsLoaded])

  // Alt+1 … Alt+9 switch views.
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const index = viewShortcutIndex(event, appViews.length)
      if (index !== null) {
        event.preventDefault()
        setViewId(appViews[index].id)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [setViewId])

  if (connection === 'unauthorized') {
    return <NeedsTokenPage />
  }
  const active = appViews.find((view) => view.id === viewId) ?? appViews[0]
  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">
          <Icon name="sparkle" />
          Modus
        </span>
        {workspace && (
          <button
            type="button"
            className="workspace-name"
            title={workspace.root}
            aria-expanded={switching}
            aria-label={`Folder ${workspace.name}: switch folder`}
            onClick={() => setSwitching((open) => !open)}
          >
            {workspace.name} ▾
          </button>
        )}
        {grantsPending && !showTrustPrompt && (
          <button type="button" className="restricted" onClick={() => setTrustReopened(true)}>
            Restricted: project permissions off
          </button>
        )}
        <span className={`connection connection-${connection}`} aria-live="polite">
          {connection === 'open' ? '' : connection === 'connecting' ? 'Connecting…' : 'Disconnected — retrying'}
        </span>
      </header>
      {workspace && switching && (
        <WorkspacePicker
          variant="switch"
          onDone={(opened) => {
            setSwitching(false)
            // Back to the folder button (Esc, Cancel), or on to the chat of the folder just opened.
            focusWhenReady(
              () => (opened ? composerField() : null) ?? document.querySelector<HTMLElement>('.workspace-name')
            )
          }}
        />
      )}
      {workspace && showTrustPrompt && <TrustPrompt workspace={workspace} onClose={() => setTrustReopened(false)} />}
      {!workspace ? (
        <main className="app-main">
          <WorkspacePicker />
        </main>
      ) : settingsLoaded && !hasProvider ? (
        <main className="app-main">
          <section className="settings-panel" aria-label="Settings">
            <h1>Choose a provider</h1>
            <providerSetup.Component />
          </section>
        </main>
      ) : (
        <div className="app-body">
          <nav className="app-nav" aria-label="Views">
            {appViews.map((view) => (
              <NavButton key={view.id} view={view} active={view.id === active.id} onSelect={setViewId} />
            ))}
          </nav>
          <main className="app-main">
            <active.component />
          </main>
        </div>
      )}
      {workspace && (
        <footer className="status-bar" aria-label="Status bar">
          <IndexStatusItem workspace={workspace.root} />
        </footer>
      )}
    </div>
  )
}

function NavButton(props: { view: AppView; active: boolean; onSelect: (id: string) => void }): ReactNode {
  const count = props.view.badge?.() ?? 0
  return (
    <button
      type="button"
      className="nav-button"
      aria-current={props.active ? 'page' : undefined}
      onClick={() => props.onSelect(props.view.id)}
    >
      <Icon name={props.view.icon} />
      <span className="nav-label">{props.view.label}</span>
      {count > 0 && (
        <span className="badge" aria-label={`${count} pending`}>
          {count}
        </span>
      )}
    </button>
  )
}
