import { realpath } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/** Where a task's saved command outputs live: `<dataDir>/tasks/<taskId>/command-output/`. */
export function commandOutputDir(dataDir: string, taskId: string): string {
  const safe = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(taskId) ? taskId : encodeURIComponent(taskId).slice(0, 200)
  return join(dataDir, 'tasks', safe, 'command-output')
}

export const ARTIFACT_ID = /^cmd-\d{1,30}\.txt$/

export const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`))
}

/**
 * Resolves a command's cwd against the workspace root and refuses anything outside it,
 * following symlinks (a link inside the workspace pointing out is outside).
 */
export async function resolveCommandCwd(rootReal: string, cwd: string): Promise<string> {
  const target = resolve(rootReal, cwd)
  let real: string
  try {
    real = await realpath(target)
  } catch {
    throw new Error(`Working directory '${cwd}' does not exist.`)
  }
  if (!isInside(rootReal, real)) {
    throw new Error(`Working directory '${cwd}' is outside the workspace (${rootReal}); commands run inside it.`)
  }
  return real
}
