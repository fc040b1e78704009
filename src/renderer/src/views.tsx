import type { ComponentType } from 'react'
import { usePendingApprovalCount } from './common/approvals/approvals-store'
// The lazy views' stylesheets (a few kB) stay in the first one, in the order they had: several views
// share their rules (cards, form fields, status chips), so none may depend on which view loaded first.
import './common/approval-actions/approvals.css'
import { ChatView } from './features/chat/ChatView'
import './features/history/history.css'
import './features/mcp/mcp.css'
import './common/review/review.css'
import './features/settings/settings.css'
import './features/terminal/terminal.css'
import './features/worktrees/worktrees.css'
import { LazyModesView, loadModesView } from './features/modes/LazyModesView'
import { lazyView, preloadWhenIdle } from './components/lazy-view'
import { NewTaskStart } from './NewTaskStart'
import type { IconName } from './components/icons'

/** The chat, with what a new task shows before its first message. */
const ChatWithStart = () => <ChatView start={<NewTaskStart />} />

// Only the chat is in the first chunk: every other view is its own chunk, fetched on first show or
// when the browser is idle after start, so the first paint does not wait for code it does not show.
const approvals = lazyView(() => import('./composed/QueueWithBranches').then((m) => m.QueueWithBranches), 'queue')
const changes = lazyView(() => import('./features/review/ChangesView').then((m) => m.ChangesView), 'changes')
const terminal = lazyView(() => import('./features/terminal/TerminalPanel').then((m) => m.TerminalPanel), 'terminal')
const mcp = lazyView(() => import('./features/mcp/McpView').then((m) => m.McpView), 'MCP servers')
const history = lazyView(() => import('./features/history/HistoryView').then((m) => m.HistoryView), 'history')
const settings = lazyView(
  () => import('./composed/SettingsWithFeatures').then((m) => m.SettingsWithFeatures),
  'settings'
)
const worktrees = lazyView(
  () => import('./composed/WorktreesWithReview').then((m) => m.WorktreesWithReview),
  'worktrees'
)

let preloading = false

/** Called once the first screen has what it needs, so the fetches never compete with it. */
export function preloadOtherViews(): void {
  if (preloading) return
  preloading = true
  preloadWhenIdle([approvals, changes, history, settings, mcp, terminal, worktrees, { preload: loadModesView }])
}

/**
 * The app's main views, shown in the navigation in this order. Each feature adds its own entry;
 * `badge` is a hook returning a count to show next to the label (e.g. pending approvals).
 */
export interface AppView {
  id: string
  label: string
  /** Drawn before the label in the navigation (decorative: the label names the view). */
  icon: IconName
  /** Keyboard shortcut with Alt (Alt+1 … Alt+9), by position. */
  component: ComponentType
  badge?: () => number
}

export const appViews: AppView[] = [
  { id: 'chat', label: 'Chat', icon: 'message', component: ChatWithStart },
  {
    id: 'approvals',
    label: 'Approvals',
    icon: 'inbox',
    component: approvals.Component,
    badge: usePendingApprovalCount
  },
  { id: 'changes', label: 'Changes', icon: 'diff', component: changes.Component },
  { id: 'terminal', label: 'Terminal', icon: 'terminal', component: terminal.Component },
  { id: 'modes', label: 'Modes', icon: 'layers', component: LazyModesView },
  { id: 'mcp', label: 'MCP', icon: 'plug', component: mcp.Component },
  { id: 'history', label: 'History', icon: 'clock', component: history.Component },
  { id: 'settings', label: 'Settings', icon: 'sliders', component: settings.Component },
  { id: 'worktrees', label: 'Worktrees', icon: 'branch', component: worktrees.Component }
]
