import type { OrphanWorktree, WorktreeTask } from '../shared/contract/worktrees'
import type { WorktreesArgs } from './args'
import type { CliIo } from './cli-io'
import { EXIT, withServices } from './run-command'
import { visible } from './visible'

/** `modus worktrees`: the isolated tasks of the workspace's repository, then orphans; `discard NAME --yes` removes one. */
export function worktreesCommand(args: WorktreesArgs, io: CliIo): Promise<number> {
  const options = { workspace: args.workspace, mode: 'code', json: args.json, nonInteractive: true, trust: false }
  return withServices(options, io, async (services, workspace) => {
    const settings = await services.worktrees.settings(workspace)
    const all = await services.worktrees.list()
    const mine = all.filter((task) => settings.repoRoot === null || task.repoRoot === settings.repoRoot)
    const orphans = await services.worktrees.orphans()
    if (args.action === 'discard') return discard(args.target ?? '', mine, orphans, services.worktrees, io)
    if (args.json) {
      for (const task of mine) io.stdout.write(`${JSON.stringify({ kind: 'worktree', ...task })}\n`)
      for (const orphan of orphans) io.stdout.write(`${JSON.stringify({ kind: 'orphan', ...orphan })}\n`)
      return EXIT.completed
    }
    if (mine.length === 0) io.stderr.write(`modus: no isolated tasks for ${workspace}\n`)
    for (const task of mine) {
      const cost = task.costUsd === null ? '$?' : `$${task.costUsd.toFixed(2)}`
      io.stdout.write(
        `${visible(task.name).padEnd(24)} ${task.state.padEnd(8)} ${task.branch.padEnd(30)} ${String(task.changedFiles).padStart(3)} files  ${cost.padStart(6)}  ${task.pruned ? '(pruned)' : task.path}\n`
      )
    }
    if (orphans.length > 0) {
      io.stdout.write(`\nOrphaned worktrees (no task owns them; remove with modus worktrees discard PATH --yes):\n`)
      for (const orphan of orphans)
        io.stdout.write(`${orphan.path}  ${orphan.branch ?? '(no branch)'}  ${orphan.reason}\n`)
    }
    io.stdout.write(
      `\nSpace used by worktrees: ${(settings.spaceUsedBytes / (1024 * 1024)).toFixed(1)} MB in ${settings.dir}\n`
    )
    return EXIT.completed
  })
}

async function discard(
  target: string,
  tasks: WorktreeTask[],
  orphans: OrphanWorktree[],
  worktrees: {
    discard(id: string): Promise<{ removed: boolean }>
    discardOrphan(path: string): Promise<{ removed: boolean }>
  },
  io: CliIo
): Promise<number> {
  const named = tasks.filter(
    (task) => task.name === target || task.branch === target || task.branch === `modus/${target}` || task.id === target
  )
  if (named.length > 1) {
    io.stderr.write(`modus: "${target}" names ${named.length} worktrees; give its id (modus worktrees --json)\n`)
    return EXIT.usage
  }
  if (named[0]) {
    const result = await worktrees.discard(named[0].id)
    io.stdout.write(`${result.removed ? 'Removed' : 'Could not remove'} ${named[0].path} (branch ${named[0].branch})\n`)
    return result.removed ? EXIT.completed : EXIT.failed
  }
  const orphan = orphans.find((entry) => entry.path === target)
  if (!orphan) {
    io.stderr.write(`modus: no worktree named "${target}" (modus worktrees lists them)\n`)
    return EXIT.usage
  }
  const result = await worktrees.discardOrphan(orphan.path)
  io.stdout.write(`${result.removed ? 'Removed' : 'Could not remove'} ${orphan.path}\n`)
  return result.removed ? EXIT.completed : EXIT.failed
}
