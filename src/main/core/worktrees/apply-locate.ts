import { promises as fs } from 'node:fs'
import { readGit } from './apply-git'
import type { WorktreeLocation } from './apply-read'

/**
 * Where an isolated task's work is: its workspace is a linked worktree of the main workspace's
 * repository (same common git dir), and its base is where its branch forked from the main tree's
 * HEAD. A task that ran in the main workspace itself has no worktree (null).
 */
export async function locateWorktree(mainRoot: string, taskWorkspace: string): Promise<WorktreeLocation | null> {
  const [main, task] = await Promise.all([fs.realpath(mainRoot), fs.realpath(taskWorkspace).catch(() => null)])
  if (!task || task === main) return null
  const commonDir = (cwd: string) =>
    readGit(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir']).then((out) => out.toString().trim())
  const [mainCommon, taskCommon] = await Promise.all([commonDir(main), commonDir(task).catch(() => null)])
  if (taskCommon !== mainCommon) return null
  const mainHead = (await readGit(main, ['rev-parse', 'HEAD'])).toString().trim()
  const baseCommit = (await readGit(task, ['merge-base', 'HEAD', mainHead])).toString().trim()
  return { mainRoot: main, worktree: task, baseCommit }
}
