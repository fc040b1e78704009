import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import type { ApplyPlan, FileConflict } from './apply-plan'

export interface WriteOutcome {
  written: string[]
  /** Files that changed on disk between the review and the write: left as they are. */
  conflicts: FileConflict[]
}

/**
 * Writes a plan into the main working tree all or nothing: every new text goes to a temp file beside
 * its target first, and only when all of them exist are they renamed over their targets (deletions
 * last). A file that changed since the plan was made, or whose folder leads outside the workspace
 * through a link, is not written.
 */
export async function writePlan(mainRoot: string, plan: ApplyPlan): Promise<WriteOutcome> {
  const root = await fs.realpath(mainRoot)
  const conflicts: FileConflict[] = []
  const ready: ApplyPlan['writes'] = []
  for (const write of plan.writes) {
    const problem = await checkTarget(root, write.path, write.expectedMain)
    if (problem) conflicts.push({ path: write.path, hunks: [], reason: problem })
    else ready.push(write)
  }
  const temps = new Map<string, string>()
  try {
    for (const write of ready) {
      if (write.content === null) continue
      const target = join(root, write.path)
      await fs.mkdir(dirname(target), { recursive: true })
      const temp = join(dirname(target), `.${basename(target)}.modus-apply-${randomBytes(6).toString('hex')}.tmp`)
      await fs.writeFile(temp, write.content, { flag: 'wx', mode: await modeOf(target) })
      temps.set(write.path, temp)
    }
  } catch (error) {
    await Promise.all([...temps.values()].map((temp) => fs.rm(temp, { force: true })))
    throw error
  }
  for (const [path, temp] of temps) await fs.rename(temp, join(root, path))
  for (const write of ready) if (write.content === null) await fs.rm(join(root, write.path), { force: true })
  return { written: ready.map((write) => write.path), conflicts }
}

async function checkTarget(root: string, path: string, expected: string | null): Promise<string | null> {
  const target = resolve(root, path)
  if (!isInside(root, target)) return 'The path leads outside the workspace.'
  const realParent = await nearestRealFolder(dirname(target))
  if (!isInside(root, realParent)) return 'A folder on the way is a link leading outside the workspace.'
  const now = await fs.readFile(target, 'utf8').catch(() => null)
  return now === expected ? null : 'The file changed in your working tree during the review; review it again.'
}

async function nearestRealFolder(folder: string): Promise<string> {
  for (let at = folder; ; at = dirname(at)) {
    const real = await fs.realpath(at).catch(() => null)
    if (real) return real
    if (dirname(at) === at) return at
  }
}

const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep))
}

/** A new text keeps the mode of the file it replaces (an executable script stays executable). */
async function modeOf(target: string): Promise<number> {
  const stat = await fs.stat(target).catch(() => null)
  return stat ? stat.mode & 0o777 : 0o644
}
