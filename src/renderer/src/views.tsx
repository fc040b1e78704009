import type { ComponentType, ReactNode } from 'react'
import { ApprovalQueueView } from './features/approvals/ApprovalQueueView'
import { usePendingApprovalCount } from './common/approvals/approvals-store'
import { ChatView } from './features/chat/ChatView'
import { HistoryView } from './features/history/HistoryView'
import { LazyModesView } from './features/modes/LazyModesView'
import { McpView } from './features/mcp/McpView'
import { ChangesView } from './features/review/ChangesView'
import { SettingsView } from './SettingsView'
import { SettingsSection } from './features/settings/SettingsSection'
import { TerminalPanel } from './features/terminal'
import { NotifyToggle } from './common/NotifyToggle'
import { useApprovalsStore } from './common/approvals/approvals-store'
import { LazyChangesetReview } from './common/review/LazyChangesetReview'
import { WorktreesView } from './features/worktrees/WorktreesView'
import { WorktreeSettings } from './features/worktrees/WorktreeSettings'
import { useWorktreesStore } from './features/worktrees/worktrees-store'
import { branchOfTask } from './features/worktrees/worktree-model'
import { NewTaskStart } from './NewTaskStart'
import type { IconName } from './components/icons'

/** The chat, with what a new task shows before its first message. */
const ChatWithStart = () => <ChatView start={<NewTaskStart />} />

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
  { id: 'approvals', label: 'Approvals', icon: 'inbox', component: QueueWithBranches, badge: usePendingApprovalCount },
  { id: 'changes', label: 'Changes', icon: 'diff', component: ChangesView },
  { id: 'terminal', label: 'Terminal', icon: 'terminal', component: TerminalPanel },
  { id: 'modes', label: 'Modes', icon: 'layers', component: LazyModesView },
  { id: 'mcp', label: 'MCP', icon: 'plug', component: McpView },
  { id: 'history', label: 'History', icon: 'clock', component: HistoryView },
  { id: 'settings', label: 'Settings', icon: 'sliders', component: SettingsWithFeatures },
  { id: 'worktrees', label: 'Worktrees', icon: 'branch', component: WorktreesWithReview }
]

/** Isolated tasks, shown with the queue's items and reviewed in the diff review, composed here. */
function WorktreesWithReview(): ReactNode {
  const approvals = useApprovalsStore((state) => state.items)
  return <WorktreesView approvals={approvals} Review={LazyChangesetReview} />
}

/** Settings with the sections other features own, composed here so no feature imports another. */
function SettingsWithFeatures(): ReactNode {
  return (
    <SettingsView
      sections={
        <>
          <SettingsSection
            title="Notifications"
            description="A task that waits for you, finishes or fails raises a desktop notification naming it."
          >
            <NotifyToggle />
          </SettingsSection>
          <SettingsSection
            title="Worktrees"
            description="Tasks in worktrees run on their own branch and folder; these settings make each new worktree runnable."
          >
            <WorktreeSettings />
          </SettingsSection>
        </>
      }
    />
  )
}

/** The queue names the worktree branch of each isolated task's items. */
function QueueWithBranches(): ReactNode {
  const tasks = useWorktreesStore((state) => state.tasks)
  return <ApprovalQueueView branchOf={(taskId) => branchOfTask(tasks, taskId)} />
}
