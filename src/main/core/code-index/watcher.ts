import { watch, type FSWatcher } from 'node:fs'
import { relative } from 'node:path'
import { toPosix } from '../workspace/paths'

export interface WatchTarget {
  root: string
  directories(): readonly string[]
  /** Files changed (created, edited, deleted). */
  onFiles(paths: string[]): void
  /** A file changed: called at once, before the debounced `onFiles` (to get ready for it). */
  onChange?(path: string): void
  /** Something needs a full rescan (a folder appeared, an ignore file changed). */
  onRescan(): void
}

/** Directories watched at most; past this the index is kept current by rebuilds only. */
export const MAX_WATCHED_DIRECTORIES = 4000
const IGNORE_FILES = new Set(['.gitignore', '.modusignore', '.rooignore'])

/**
 * Watches the indexed directories one by one (not recursively: the excluded folders such as
 * node_modules are never watched) and reports changes in debounced batches.
 */
export function watchIndexedDirectories(target: WatchTarget, debounceMs = 300) {
  const watchers = new Map<string, FSWatcher>()
  let changed = new Set<string>()
  let rescan = false
  let timer: NodeJS.Timeout | null = null

  const flush = () => {
    timer = null
    const paths = [...changed]
    changed = new Set()
    if (rescan) {
      rescan = false
      target.onRescan()
    } else if (paths.length) target.onFiles(paths)
  }
  const schedule = () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(flush, debounceMs)
  }

  const add = (dir: string) => {
    if (watchers.has(dir) || watchers.size >= MAX_WATCHED_DIRECTORIES) return
    try {
      const watcher = watch(dir, { persistent: false }, (event, name) => {
        if (!name) {
          rescan = true
          return schedule()
        }
        const rel = toPosix(relative(target.root, `${dir}/${name}`))
        if (IGNORE_FILES.has(String(name)) || event === 'rename') {
          // A rename may be a new or removed folder: a rescan decides (it is incremental).
          if (IGNORE_FILES.has(String(name)) || !/\.[A-Za-z0-9]+$/.test(String(name))) rescan = true
        }
        if (!changed.has(rel)) target.onChange?.(rel)
        changed.add(rel)
        schedule()
      })
      watcher.on('error', () => {
        watchers.delete(dir)
        watcher.close()
      })
      watchers.set(dir, watcher)
    } catch {
      // the folder went away between the scan and now
    }
  }

  return {
    /** Watches the directories of the last scan; stops watching ones that are gone. */
    refresh() {
      const wanted = new Set(target.directories())
      for (const [dir, watcher] of watchers)
        if (!wanted.has(dir)) {
          watcher.close()
          watchers.delete(dir)
        }
      for (const dir of wanted) add(dir)
    },
    get size() {
      return watchers.size
    },
    close() {
      if (timer) clearTimeout(timer)
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    }
  }
}
