import { UserFacingError } from '../../../shared/contract/dispatch'
import type { ProposedCommand, WorktreeProposal } from '../../../shared/contract/worktree-review'
import type { WorktreeTask } from '../../../shared/contract/worktrees'
import { snapshotOnBranch } from './worktree-git'

/** Only Modus's own branch names go into a command line: nothing in them a shell would read. */
const SAFE_BRANCH = /^modus\/[a-z0-9][a-z0-9-]*$/

export interface ProposalDeps {
  worktrees: {
    list(): Promise<WorktreeTask[]>
    /** The open folder a worktree's task was started from (its trust is that folder's). */
    sourceOf(root: string): string | null
    /** A running sandbox's placeholders in the worktree (relative paths): not the task's work. */
    placeholdersIn(worktree: string): string[]
  }
  /** Starts the task that asks for the command (the task manager's start: no model request, only this command). */
  start(input: {
    text: string
    workspace: string
    command: { line: string; outsideSandbox: boolean }
  }): Promise<{ id: string }>
  /** Whether a program is on the PATH commands run with. */
  hasProgram(name: string): boolean
}

/** The command each proposal stands for; both need the user's git (and network for a PR), so they run unsandboxed. */
export function proposedCommandLine(action: WorktreeProposal, branch: string): string {
  if (!SAFE_BRANCH.test(branch)) throw new UserFacingError('unsafe_branch', `Not a Modus branch: ${branch}`)
  return action === 'merge'
    ? `git merge --no-ff --no-edit ${branch}`
    : `git push --set-upstream origin ${branch} && gh pr create --head ${branch} --fill`
}

/**
 * "Merge branch" / "Open a PR" of an isolated task: the task's uncommitted work is committed on its
 * own branch first (as pruning does), then the command is proposed in the folder the task came from
 * as a task of its own, where the policy decides it like the model's execute_command would. It runs
 * outside the sandbox (it writes `.git/`), and such a command always asks.
 */
export async function proposeForWorktree(
  deps: ProposalDeps,
  taskId: string,
  action: WorktreeProposal
): Promise<ProposedCommand> {
  const task = (await deps.worktrees.list()).find((entry) => entry.taskId === taskId || entry.id === taskId)
  if (!task) throw new UserFacingError('not_found', 'This task has no worktree (it ran in the main workspace).')
  if (task.state === 'running' || task.state === 'waiting' || task.state === 'queued')
    throw new UserFacingError('task_active', 'The task is still working: wait until it is done or stop it first.')
  if (action === 'pr' && !deps.hasProgram('gh'))
    throw new UserFacingError(
      'gh_missing',
      `The GitHub CLI (gh) is not installed, so Modus cannot open a pull request: install it (https://cli.github.com), or push ${task.branch} and open the pull request on your Git host.`
    )
  const command = proposedCommandLine(action, task.branch)
  const committedWork = task.pruned
    ? false
    : await snapshotOnBranch(
        task.path,
        `Modus: ${task.name}\n\n${task.title}`,
        deps.worktrees.placeholdersIn(task.path)
      ).catch((error: unknown) => {
        throw new UserFacingError(
          'commit_failed',
          `Could not commit the task's work on ${task.branch}: ${error instanceof Error ? error.message : String(error)}`
        )
      })
  const summary = await deps.start({
    text: `${action === 'merge' ? 'Merge branch' : 'Open a pull request for'} ${task.branch} (${task.title})`,
    workspace: deps.worktrees.sourceOf(task.path) ?? task.repoRoot,
    command: { line: command, outsideSandbox: true }
  })
  return { taskId: summary.id, command, committedWork }
}
