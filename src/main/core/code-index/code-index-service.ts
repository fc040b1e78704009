import { createHash } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { CodeIndexStatus } from '../../../shared/contract/code-index'
import type { EmbeddingsConfig } from '../settings/settings-schema'
import { idleStatus, openCodeIndex, type CodeIndex } from './code-index'
import { createEmbedder, type Embedder } from './embedder'
import { PROVIDERS } from '../../../shared/providers/descriptors'
import type { CodeParser } from './parser'
import { watchIndexedDirectories } from './watcher'
import { scanWorkspace } from './file-scan'
import { keptIndexComplete } from './index-meta'

export interface CodeIndexServiceDeps {
  dataDir: string
  parser: CodeParser
  /** The embeddings settings with their key, read when a run or a search needs them. */
  embeddings: () => Promise<{ config: EmbeddingsConfig; apiKey?: string } | null>
  onStatus?: (status: CodeIndexStatus) => void
  fetch?: typeof fetch
  /** Watch the workspace for changes (default true). */
  watch?: boolean
}

interface OpenIndex {
  index: CodeIndex
  /** Watches the directories of the last scan. */
  refreshWatch: () => void
  stopWatching: () => void
}

/** Whether a finished index of this workspace is on disk (its bookkeeping says a full scan completed). */
const hasKeptIndex = (dataDir: string, root: string): Promise<boolean> =>
  keptIndexComplete(indexDirFor(dataDir, root), root)

/** Candidate files of a workspace, counted up to one past `limit` (the listing stops there). */
async function countUpTo(root: string, limit: number): Promise<number> {
  const { files, truncated } = await scanWorkspace(root, root, true, limit + 1)
  return truncated ? limit + 1 : files.length
}

/** Each workspace's index lives in the app data dir under a hash of its root. */
export const indexDirFor = (dataDir: string, root: string): string =>
  join(dataDir, 'code-index', createHash('sha256').update(root).digest('hex').slice(0, 24))

/** Opens one index per workspace on first use, builds it in the background and keeps it current. */
export function createCodeIndexService(deps: CodeIndexServiceDeps) {
  const open = new Map<string, Promise<OpenIndex>>()
  let embedderCache: { key: string; value: { embedder: Embedder; baseUrl: string } } | null = null

  const embedder = async () => {
    const settings = await deps.embeddings()
    if (!settings) return null
    // The settings contract requires a base URL for a kind with no official endpoint.
    const baseUrl = settings.config.baseUrl ?? PROVIDERS[settings.config.kind].defaultBaseUrl ?? ''
    const key = JSON.stringify([baseUrl, settings.config.model, settings.config.dimensions, settings.apiKey])
    if (embedderCache?.key !== key) {
      const value = createEmbedder(
        { baseUrl, model: settings.config.model, apiKey: settings.apiKey, dimensions: settings.config.dimensions },
        deps.fetch
      )
      embedderCache = { key, value: { embedder: value, baseUrl } }
    }
    return embedderCache.value
  }

  const openIndex = async (root: string): Promise<OpenIndex> => {
    const index = await openCodeIndex({
      root,
      dir: indexDirFor(deps.dataDir, root),
      parser: deps.parser,
      embedder,
      onStatus: deps.onStatus
    })
    if (deps.watch === false) return { index, refreshWatch: () => undefined, stopWatching: () => undefined }
    const watcher = watchIndexedDirectories({
      root,
      directories: () => index.directories(),
      onFiles: (paths) => void index.update(paths),
      onChange: (path) => void index.warmParser([path]),
      onRescan: () => void index.sync().then(() => watcher.refresh())
    })
    return { index, refreshWatch: () => watcher.refresh(), stopWatching: () => watcher.close() }
  }

  let disposed = false

  /** The index of a workspace, opened (and its first sync started) on first use. */
  const forWorkspace = (root: string): Promise<CodeIndex> => {
    if (disposed) return Promise.reject(new Error('The code index service is closed.'))
    let pending = open.get(root)
    if (!pending) {
      pending = openIndex(root).then((opened) => {
        void opened.index.sync().then(() => {
          opened.refreshWatch()
          // The first edit then finds the parser ready (a worker with the main language: about 20 MB).
          if (deps.watch !== false) void opened.index.warmParser()
        })
        return opened
      })
      pending.catch(() => open.delete(root))
      open.set(root, pending)
    }
    return pending.then((o) => o.index)
  }

  const close = async (root: string) => {
    const pending = open.get(root)
    if (!pending) return
    open.delete(root)
    const opened = await pending.catch(() => null)
    if (!opened) return
    opened.stopWatching()
    await opened.index.close()
  }

  return {
    forWorkspace,
    /**
     * When a workspace opens: a kept index opens (answering at once) and checks for changes; a
     * workspace never indexed is built now if auto-start is on and it holds at most `maxFiles`
     * files, else on the first search or Rebuild (the status says why).
     */
    async startWithWorkspace(root: string, limits: { autoStart: boolean; maxFiles: number }): Promise<CodeIndexStatus> {
      if (open.has(root) || (await hasKeptIndex(deps.dataDir, root))) return (await forWorkspace(root)).status()
      const reason = !limits.autoStart
        ? 'automatic indexing is off'
        : (await countUpTo(root, limits.maxFiles)) > limits.maxFiles
          ? `the workspace holds more than ${limits.maxFiles} files`
          : null
      if (!reason) return (await forWorkspace(root)).status()
      const status = {
        ...idleStatus(root),
        message: `Not indexed yet: ${reason} (settings: codeIndex). It is built on the first codebase_search or on Rebuild.`
      }
      deps.onStatus?.(status)
      return status
    },
    /** The status of a workspace's index without opening it. */
    async status(root: string | null): Promise<CodeIndexStatus> {
      if (!root || !open.has(root)) return idleStatus(root)
      return (await forWorkspace(root)).status()
    },
    async rebuild(root: string): Promise<CodeIndexStatus> {
      const index = await forWorkspace(root)
      void index.rebuild()
      return index.status()
    },
    async cancel(root: string): Promise<CodeIndexStatus> {
      if (!open.has(root)) return idleStatus(root)
      const index = await forWorkspace(root)
      index.cancel()
      return index.status()
    },
    /** Continues the build where it stopped (a cancel, or a process that ended mid-build): indexed files are skipped by stat. */
    async resume(root: string): Promise<CodeIndexStatus> {
      // Opening an index starts its sync; an index already open syncs unless a run is under way.
      const wasOpen = open.has(root)
      const index = await forWorkspace(root)
      if (wasOpen && index.status().state !== 'indexing') void index.sync()
      return index.status()
    },
    /** Deletes the workspace's index from disk; the next search or rebuild starts over. */
    async clear(root: string): Promise<CodeIndexStatus> {
      await close(root)
      await rm(indexDirFor(deps.dataDir, root), { recursive: true, force: true })
      const status = { ...idleStatus(root), message: 'Index cleared.' }
      deps.onStatus?.(status)
      return status
    },
    /** After the embeddings settings change: vectors of another model are dropped and rebuilt. */
    async embeddingsChanged(): Promise<void> {
      embedderCache = null
      for (const pending of open.values()) void pending.then((o) => o.index.sync()).catch(() => undefined)
    },
    async dispose(): Promise<void> {
      // A start still counting files must not open an index after this.
      disposed = true
      await Promise.all([...open.keys()].map(close))
    }
  }
}

export type CodeIndexService = ReturnType<typeof createCodeIndexService>
