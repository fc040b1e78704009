import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { worktreesRequests } from '../../../shared/contract/worktrees'
import type { WorktreeTasks } from './worktree-tasks'

export type WorktreeChannels = keyof typeof worktreesRequests

/** The isolated tasks of the app: each request acts on the open folder's repository. */
export function createWorktreeHandlers(deps: {
  worktrees: WorktreeTasks
  currentWorkspace: () => string | null
  defaultMode: string
}): Pick<Handlers, WorktreeChannels> {
  const workspace = (): string => {
    const root = deps.currentWorkspace()
    if (!root) throw new UserFacingError('no_workspace', 'Open a project folder before starting a task.')
    return root
  }
  return {
    'worktrees:start': (input) =>
      deps.worktrees.start({
        workspace: workspace(),
        text: input.text,
        mode: input.mode ?? deps.defaultMode,
        name: input.name,
        carryChanges: input.carryChanges
      }),
    'worktrees:list': () => deps.worktrees.list(),
    'worktrees:orphans': () => deps.worktrees.orphans(),
    'worktrees:discard': ({ id }) => deps.worktrees.discard(id),
    'worktrees:discardOrphan': ({ path }) => deps.worktrees.discardOrphan(path),
    'worktrees:settings': () => deps.worktrees.settings(deps.currentWorkspace()),
    'worktrees:saveSettings': (input) => deps.worktrees.saveSettings(deps.currentWorkspace(), input),
    'worktrees:prune': () => deps.worktrees.prune()
  }
}
