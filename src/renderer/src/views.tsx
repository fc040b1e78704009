import type { ComponentType } from 'react'
import { ApprovalQueueView } from './features/approvals/ApprovalQueueView'
import { usePendingApprovalCount } from './features/approvals/approvals-store'
import { ChatView } from './features/chat/ChatView'
import { HistoryView } from './features/history/HistoryView'
import { LazyModesView } from './features/modes/LazyModesView'
import { McpView } from './features/mcp/McpView'
import { ChangesView } from './features/review/ChangesView'
import { SettingsView } from './features/settings/SettingsView'
import { TerminalPanel } from './features/terminal'
import { NewTaskStart } from './NewTaskStart'

/** The chat, with what a new task shows before its first message. */
const ChatWithStart = () => <ChatView start={<NewTaskStart />} />

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
  { id: 'chat', label: 'Chat', component: ChatWithStart },
  { id: 'approvals', label: 'Approvals', component: ApprovalQueueView, badge: usePendingApprovalCount },
  { id: 'changes', label: 'Changes', component: ChangesView },
  { id: 'terminal', label: 'Terminal', component: TerminalPanel },
  { id: 'modes', label: 'Modes', component: LazyModesView },
  { id: 'mcp', label: 'MCP', component: McpView },
  { id: 'history', label: 'History', component: HistoryView },
  { id: 'settings', label: 'Settings', component: SettingsView }
]
