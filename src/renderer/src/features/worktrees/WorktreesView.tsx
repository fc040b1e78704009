import { useEffect, useMemo, type ComponentType, type ReactNode } from 'react'
import type { ApprovalDecision, ApprovalItem, ChangeView } from '../../../../shared/contract/approvals'
import type { TaskSummary } from '../../../../shared/contract/task'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { formatCost, isIsolated, needsYouFirst, outcomeLines, stateOf, worktreeName } from './worktree-model'
import { useWorktreesStore } from './worktrees-store'
import './worktrees.css'

/** The diff review this view shows a task's changes in (the app passes features/review's). */
export type ReviewComponent = ComponentType<{
  changes: ChangeView[]
  approvalId?: string
  onDecide?: (decision: ApprovalDecision) => Promise<void>
}>

export interface WorktreesViewProps {
  /** The open folder: tasks running anywhere else run in their own worktree. */
  mainRoot: string | null
  approvals: readonly ApprovalItem[]
  Review: ReviewComponent
}

/** Isolated tasks side by side, those waiting for you first; a finished one is reviewed and brought back here. */
export function WorktreesView({ mainRoot, approvals, Review }: WorktreesViewProps): ReactNode {
  const client = useClient()
  const tasks = useWorktreesStore((state) => state.tasks)
  const selectedId = useWorktreesStore((state) => state.selectedId)
  useEffect(() => void useWorktreesStore.getState().load(client), [client])
  const isolated = useMemo(
    () =>
      needsYouFirst(
        Object.values(tasks).filter((task) => isIsolated(task, mainRoot)),
        approvals
      ),
    [tasks, mainRoot, approvals]
  )
  const asking = useMemo(() => new Set(approvals.map((item) => item.taskId)), [approvals])
  const selected = isolated.find((task) => task.id === selectedId)
  return (
    <section className="worktrees-view" aria-label="Worktrees">
      <h1>Tasks in worktrees</h1>
      {isolated.length === 0 ? (
        <p className="note">No task runs in a worktree of this folder.</p>
      ) : (
        <ul className="worktree-tasks" aria-label="Isolated tasks">
          {isolated.map((task) => (
            <TaskRow key={task.id} task={task} state={stateOf(task, asking)} selected={task.id === selectedId} />
          ))}
        </ul>
      )}
      {selected && <TaskReview task={selected} Review={Review} />}
    </section>
  )
}

function TaskRow(props: { task: TaskSummary; state: string; selected: boolean }): ReactNode {
  const { task } = props
  const client = useClient()
  const changed = useWorktreesStore((state) => state.reviews[task.id]?.changes?.length)
  const open = (): void => {
    useWorktreesStore.getState().select(task.id)
    void useWorktreesStore.getState().openReview(client, task.id)
  }
  return (
    <li className="worktree-task" aria-label={task.title} aria-current={props.selected ? 'true' : undefined}>
      <strong>{task.title}</strong>
      <span className={`worktree-state worktree-state-${props.state.replaceAll(' ', '-')}`}>{props.state}</span>
      <span className="note">
        {worktreeName(task)}
        {changed !== undefined && ` · ${changed} changed file${changed === 1 ? '' : 's'}`}
        {formatCost(task.costUsd) && ` · ${formatCost(task.costUsd)}`}
      </span>
      <button type="button" onClick={open}>
        Review changes
      </button>
    </li>
  )
}

function TaskReview({ task, Review }: { task: TaskSummary; Review: ReviewComponent }): ReactNode {
  const client = useClient()
  const review = useWorktreesStore((state) => state.reviews[task.id])
  const decide = async (decision: ApprovalDecision): Promise<void> => {
    if (decision.outcome !== 'approve') return
    const all = review?.changes?.map((change) => ({ changeId: change.id })) ?? []
    await useWorktreesStore.getState().apply(client, task.id, decision.changes ?? all)
  }
  return (
    <section className="worktree-review" aria-label={`Changes of ${task.title}`}>
      <h2>Changes of {task.title}</h2>
      <p className="note">
        Accepting applies the accepted hunks to your working tree. A hunk on lines you changed locally is shown as a
        conflict and never written.
      </p>
      <FormError message={review?.error ?? null} />
      {review?.outcome && (
        <ul className="worktree-outcome" role="status" aria-label="Apply result">
          {outcomeLines(review.outcome).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {review?.changes === null || review === undefined ? (
        <p className="note">Reading the worktree…</p>
      ) : review.changes.length === 0 ? (
        <p className="note">Nothing left to bring back: the main tree has every change of this task.</p>
      ) : (
        <Review
          key={review.changes.map((change) => change.id + change.hunks.length).join()}
          changes={review.changes}
          approvalId={`worktree:${task.id}`}
          onDecide={decide}
        />
      )}
    </section>
  )
}
