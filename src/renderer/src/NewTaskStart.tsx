import { useEffect, type ReactNode } from 'react'
import type { TaskSummary } from '../../shared/contract/task'
import { useClient } from './client/client-context'
import { useChatStore } from './common/chat/chat-store'
import { useHistoryStore } from './features/history/history-store'
import { useSettingsStore } from './common/settings/settings-store'
import { useWorkspaceStore } from './common/workspace/workspace-store'
import { useNavigationStore } from './navigation-store'

const RECENT = 5

// Only what the app does today: each tip names a control the user can find.
const TIPS = [
  'Enter sends the message; Shift+Enter starts a new line.',
  'The mode under the message field decides what the agent may do without asking you.',
  'In a change review, N and P move between hunks.',
  'Alt with a digit (Alt+1, Alt+2 …) switches between the views in the sidebar.',
  'Every task is kept in History, where you can open, resume or export it.'
]

/**
 * What a new task shows before its first message: the mode and model it will start with, a few
 * tips, and the folder's recent tasks (one click opens one). Composed here from several features.
 */
export function NewTaskStart(): ReactNode {
  return (
    <div className="new-task-start">
      <StartsWith />
      <section aria-labelledby="new-task-tips">
        <h2 id="new-task-tips">Tips</h2>
        <ul className="new-task-tips">
          {TIPS.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
      <RecentTasks />
    </div>
  )
}

/** The mode the composer will start in (its name and what it is for) and the active provider's model. */
function StartsWith(): ReactNode {
  const picked = useChatStore((state) => state.composerMode)
  const modes = useChatStore((state) => state.modes)
  const slug = picked ?? modes.defaultSlug
  const mode = modes.options.find((option) => option.slug === slug)
  const provider = useSettingsStore((state) =>
    state.settings?.providers.find((candidate) => candidate.id === state.settings?.activeProviderId)
  )
  return (
    <section aria-labelledby="new-task-setup" className="new-task-setup">
      <h2 id="new-task-setup">This task starts with</h2>
      <dl>
        <dt>Mode</dt>
        <dd>
          <strong>{mode?.name ?? slug}</strong>
          {mode?.description && <span className="note"> — {mode.description}</span>}
        </dd>
        <dt>Model</dt>
        <dd>
          {provider ? (
            <>
              <strong>{provider.model}</strong> <span className="note">({provider.label})</span>
            </>
          ) : (
            <span className="note">No provider yet: add one in Settings.</span>
          )}
        </dd>
      </dl>
    </section>
  )
}

/** The latest top-level tasks of the open folder. */
export function recentTasks(tasks: readonly TaskSummary[], workspace: string | null, count = RECENT): TaskSummary[] {
  return tasks
    .filter((task) => !task.parentId && (!workspace || !task.workspace || task.workspace === workspace))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, count)
}

function RecentTasks(): ReactNode {
  const client = useClient()
  const loaded = useHistoryStore((state) => state.loaded)
  const all = useHistoryStore((state) => state.tasks)
  const workspace = useWorkspaceStore((state) => state.current?.root ?? null)
  useEffect(() => {
    if (!loaded) void useHistoryStore.getState().load(client)
  }, [client, loaded])
  const tasks = recentTasks(Object.values(all), workspace)
  if (tasks.length === 0) return null
  const open = async (task: TaskSummary): Promise<void> => {
    await useHistoryStore.getState().openInChat(client, task, false)
    useNavigationStore.getState().show('chat')
  }
  return (
    <section aria-labelledby="new-task-recent">
      <h2 id="new-task-recent">Recent tasks</h2>
      <ul className="new-task-recent">
        {tasks.map((task) => (
          <li key={task.id}>
            <button type="button" className="link" onClick={() => void open(task)}>
              {task.title}
            </button>{' '}
            <span className="note">{new Date(task.updatedAt).toLocaleString()}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
