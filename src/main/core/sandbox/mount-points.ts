import { lstatSync, rmSync } from 'node:fs'

/**
 * bubblewrap creates an empty file where it binds over an absent protected path (`.git`, `.modus`,
 * `.roomodes` in a fresh folder), and an empty `.git` breaks git. Such a file may only go once no
 * sandboxed command runs: deleting a mount point unmounts it in every namespace, so removing it
 * under a running command would lift that command's protection. The runtime counts its own
 * commands the same way; its cleanup is held back here until Modus's commands have ended too.
 */
export interface MountPointJanitor {
  /** A sandboxed command starts; `created` are the mount points its bwrap may create. */
  begin(created?: readonly string[]): void
  /** It ended; `cleanup` (the runtime's own) runs once no sandboxed command runs. */
  end(cleanup?: () => void): void
  /** Whether `path` is a mount point a running sandbox created (an empty file of bubblewrap's, still there). */
  created(path: string): boolean
  /** The mount points running sandboxes created that are still there. */
  held(): string[]
}

export function createMountPointJanitor(): MountPointJanitor {
  let running = 0
  const left = new Set<string>()
  const deferred: (() => void)[] = []
  const created = (path: string): boolean => {
    if (!left.has(path)) return false
    const stat = lstatSync(path, { throwIfNoEntry: false })
    return stat?.isFile() === true && stat.size === 0
  }
  return {
    begin(created = []) {
      running++
      for (const path of created) left.add(path)
    },
    end(cleanup) {
      if (cleanup) deferred.push(cleanup)
      running = Math.max(0, running - 1)
      if (running > 0) return
      for (const path of left) removeIfEmptyFile(path)
      left.clear()
      for (const run of deferred.splice(0)) run()
    },
    held: () => [...left].filter(created),
    created
  }
}

/** Only an empty regular file is bubblewrap's: anything else there was made by someone else. */
function removeIfEmptyFile(path: string): void {
  const stat = lstatSync(path, { throwIfNoEntry: false })
  if (stat?.isFile() && stat.size === 0) rmSync(path, { force: true })
}
