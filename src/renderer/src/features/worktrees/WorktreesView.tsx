import { useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react'
import type { ApprovalDecision, ApprovalItem, ChangeView } from '../../../../shared/contract/approvals'
import type { WorktreeTask } from '../../../../shared/contract/worktrees'
import type { WorktreeProposal } from '../../../../shared/contract/worktree-review'
import { useClient } from '../../client/client-context'
import { FormError } from '../../components/FormError'
import { NewWorktreeTask } from './NewWorktreeTask'
import { formatCost, needsYouFirst, outcomeLines, stateOf, type ShownState } from './worktree-model'
import { useWorktreesStore } from './worktrees-store'
import './worktrees.css'
import { focusOnMount } from '../../components/focus-after'

/** The diff review this view shows a task's changes in (the app passes features/review's). */
export type ReviewComponent = ComponentType<{
  changes: ChangeView[]
  approvalId?: string
  onDecide?: (decision: ApprovalDecision) => Promise<void>
}>

export interface WorktreesViewProps {
  approvals: readonly ApprovalItem[]
  Review: ReviewComponent
}

/** Isolated tasks side by side, those waiting for you first; a finished one is reviewed and brought back here. */
export function WorktreesView({ approvals, Review }: WorktreesViewProps): ReactNode {
  const client = useClient()
  const tasks = useWorktreesStore((state) => state.tasks)
  const selectedId = useWorktreesStore((state) => state.selectedId)
  useEffect(() => void useWorktreesStore.getState().load(client), [client])
  const sorted = useMemo(() => needsYouFirst(tasks, approvals), [tasks, approvals])
  const asking = useMemo(() => new Set(approvals.map((item) => item.taskId)), [approvals])
  const selected = sorted.find((task) => task.id === selectedId)
  return (
    <section className="worktrees-view" aria-label="Worktrees">
      <h1>Tasks in worktrees</h1>
      <p className="note">
        Each runs on its own branch in its own folder; nothing reaches your working tree until you apply it here.
      </p>
      <NewWorktreeTask />
      {sorted.length === 0 ? (
        <p className="note">No task runs in a worktree yet.</p>
      ) : (
        <ul className="worktree-tasks" aria-label="Isolated tasks">
          {sorted.map((task) => (
            <TaskRow key={task.id} task={task} state={stateOf(task, asking)} selected={task.id === selectedId} />
          ))}
        </ul>
      )}
      {selected?.taskId && <TaskReview task={selected} taskId={selected.taskId} Review={Review} />}
    </section>
  )
}

function TaskRow(props: { task: WorktreeTask; state: ShownState; selected: boolean }): ReactNode {
  const { task } = props
  const client = useClient()
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const open = (): void => {
    useWorktreesStore.getState().select(task.id)
    if (task.taskId) void useWorktreesStore.getState().openReview(client, task.taskId)
  }
  const discard = async (): Promise<void> => {
    setConfirming(false)
    try {
      await useWorktreesStore.getState().discard(client, task.id)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }
  return (
    <li className="worktree-task" aria-label={task.title} aria-current={props.selected ? 'true' : undefined}>
      <div className="worktree-task-head">
        <strong>{task.title}</strong>
        <span className={`worktree-state worktree-state-${props.state.replaceAll(' ', '-')}`}>{props.state}</span>
      </div>
      <span className="note">
        <code>{task.branch}</code> · {task.changedFiles} changed file{task.changedFiles === 1 ? '' : 's'} ·{' '}
        {formatCost(task.costUsd)} · <span title="PORT and MODUS_PORT_BASE in its shell">port {task.portBase}</span>
        {task.startError && ` · ${task.startError}`}
      </span>
      <FormError message={error} />
      {confirming ? (
        <div className="row" role="alertdialog" aria-label={`Discard ${task.branch}?`}>
          <span>Remove the worktree and delete branch {task.branch}? Its changes are lost.</span>
          <button type="button" className="danger irreversible" ref={focusOnMount} onClick={() => void discard()}>
            Discard
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </div>
      ) : (
        <div className="row">
          {task.taskId && (
            <button type="button" onClick={open}>
              Review changes
            </button>
          )}
          {task.taskId && finished(task) && <ProposeButtons taskId={task.taskId} branch={task.branch} />}
          <button type="button" onClick={() => setConfirming(true)}>
            Discard…
          </button>
        </div>
      )}
    </li>
  )
}

const finished = (task: WorktreeTask): boolean => ['done', 'failed', 'stopped'].includes(task.state)

/**
 * "Merge branch" / "Open a PR": each proposes its command as a task in the open folder; the policy
 * asks for it in Approvals like any command, and nothing runs before the answer.
 */
function ProposeButtons({ taskId, branch }: { taskId: string; branch: string }): ReactNode {
  const client = useClient()
  const [proposed, setProposed] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const propose = async (action: WorktreeProposal): Promise<void> => {
    setError(null)
    setProposed(null)
    try {
      const result = await useWorktreesStore.getState().propose(client, taskId, action)
      setProposed(
        `${result.committedWork ? `The task's work was committed on ${branch}. ` : ''}Proposed: ${result.command} — answer it in Approvals; nothing runs before.`
      )
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }
  return (
    <>
      <button type="button" onClick={() => void propose('merge')}>
        Merge branch
      </button>
      <button type="button" onClick={() => void propose('pr')}>
        Open a PR
      </button>
      <span role="status" className="note">
        {proposed}
      </span>
      <FormError message={error} />
    </>
  )
}

function TaskReview(props: { task: WorktreeTask; taskId: string; Review: ReviewComponent }): ReactNode {
  const { task, taskId, Review } = props
  const client = useClient()
  const review = useWorktreesStore((state) => state.reviews[taskId])
  const decide = async (decision: ApprovalDecision): Promise<void> => {
    if (decision.outcome !== 'approve') return
    const all = review?.changes?.map((change) => ({ changeId: change.id })) ?? []
    await useWorktreesStore.getState().apply(client, taskId, decision.changes ?? all)
  }
  return (
    <section className="worktree-review" aria-label={`Changes of ${task.title}`}>
      <h2>
        Changes of {task.title} <code>{task.branch}</code>
      </h2>
      <p className="note">
        Accepting applies the accepted hunks to your working tree. A hunk on lines you changed locally is a conflict and
        is never written. To keep the history instead, use “Merge branch” (it proposes{' '}
        <code>git merge --no-ff --no-edit {task.branch}</code> through your approval).
      </p>
      <FormError message={review?.error ?? null} />
      {review?.outcome && (
        <div role="status" aria-label="Apply result">
          <ul className="worktree-outcome">
            {outcomeLines(review.outcome).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {!review?.changes ? (
        !review?.error && <p className="note">Reading the worktree…</p>
      ) : review.changes.length === 0 ? (
        <p className="note">Nothing left to bring back: your working tree has every change of this task.</p>
      ) : (
        <Review
          key={review.changes.map((change) => change.id + change.hunks.length).join()}
          changes={review.changes}
          approvalId={`worktree:${taskId}`}
          onDecide={decide}
        />
      )}
    </section>
  )
}
