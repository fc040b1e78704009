import { readdirSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'

/**
 * What a sandboxed command may not read of Modus's data dir when worktrees live in it: everything
 * but the worktrees folder, and every worktree but the one the command runs in (or none, outside
 * any worktree). A data dir that cannot be listed is hidden whole.
 */
export function privateDataDirs(
  dataDir: string,
  worktreesDir: string,
  worktreeFolders: readonly string[],
  workspaceRoot: string
): string[] {
  let names: string[]
  try {
    names = readdirSync(dataDir)
  } catch {
    return [dataDir]
  }
  const worktrees = resolve(worktreesDir)
  const root = resolve(workspaceRoot)
  const inside = (folder: string) => root === resolve(folder) || root.startsWith(resolve(folder) + sep)
  const own = worktreeFolders.find(inside)
  if (!own) return [dataDir]
  const hidden = names.map((name) => join(dataDir, name)).filter((path) => resolve(path) !== worktrees)
  hidden.push(join(worktreesDir, '.records'), join(worktreesDir, 'settings.json'))
  for (const repoDir of listDirs(worktreesDir)) {
    for (const folder of listDirs(repoDir)) if (resolve(folder) !== resolve(own)) hidden.push(folder)
  }
  return hidden
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => join(dir, entry.name))
  } catch {
    return []
  }
}
