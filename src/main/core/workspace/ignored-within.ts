import { readdir, realpath, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { isWithin, toPosix } from './paths'

export interface IgnoredWithinDeps {
  rootReal: string
  ignored(relativePosix: string, isDirectory: boolean): boolean
}

/** Entries looked at before the answer is "yes" anyway: a huge tree asks rather than stalls. */
export const IGNORED_WITHIN_BUDGET = 20_000

/**
 * Whether a folder holds an entry the ignore files exclude, at any depth: what a recursive read
 * (`grep -r`, `tar c`, `cp -r`, `zip -r`) of it would take along. Links are followed to their real
 * target (a link to an ignored file counts; `grep -R`, `cp -L` follow them). Fails closed: past
 * the budget, the answer is yes.
 */
export async function holdsIgnoredEntries(
  dirReal: string,
  deps: IgnoredWithinDeps,
  budget = IGNORED_WITHIN_BUDGET
): Promise<boolean> {
  const relOf = (abs: string) => toPosix(relative(deps.rootReal, abs))
  const seen = new Set<string>([dirReal])
  const queue = [dirReal]
  let looked = 0
  for (let head = 0; head < queue.length; head++) {
    const dir = queue[head]
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (++looked > budget) return true
      let abs = join(dir, entry.name)
      let isDir = entry.isDirectory()
      if (entry.isSymbolicLink()) {
        if (deps.ignored(relOf(abs), false)) return true
        const target = await realpath(abs).catch(() => null)
        // Outside or dangling: the outside-workspace checks judge those, not the ignore file.
        if (!target || !isWithin(deps.rootReal, target)) continue
        abs = target
        isDir = (await stat(target).catch(() => null))?.isDirectory() ?? false
      }
      if (abs === deps.rootReal) continue
      if (deps.ignored(relOf(abs), isDir)) return true
      if (isDir && !seen.has(abs)) {
        seen.add(abs)
        queue.push(abs)
      }
    }
  }
  return false
}
