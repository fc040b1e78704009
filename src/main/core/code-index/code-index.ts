import { createHash } from 'node:crypto'
import { realpath, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { CodeIndexStatus } from '../../../shared/contract/code-index'
import { chunkBySize, chunkFile, isMinified, type Chunk } from './chunker'
import { EmbeddingsError, type Embedder } from './embedder'
import {
  candidatesAmong,
  readForIndex,
  scanWorkspace,
  statAll,
  statForIndex,
  type FileRead,
  type FileStat
} from './file-scan'
import { openIndexMeta, type SkippedFolder } from './index-meta'
import { languageFor, type LanguageSpec } from './languages'
import type { CodeParser, Definition } from './parser'
import { fuseRankings, type SearchHit } from './hybrid'
import { openVectorStore, type LexicalHit, type StoredChunk, type VectorHit, type VectorStore } from './vector-store'

/** The status of a workspace whose index has not run (or of no workspace at all). */
export const idleStatus = (workspace: string | null): CodeIndexStatus => ({
  workspace,
  state: 'idle',
  filesDone: 0,
  filesTotal: 0,
  chunks: 0,
  errors: 0,
  recentErrors: [],
  semantic: { state: 'off', chunksEmbedded: 0, chunksTotal: 0 },
  message: workspace ? 'Not indexed yet.' : 'Open a folder to index it.'
})

export interface CodeIndexOptions {
  root: string
  /** This workspace's folder in the app data dir (LanceDB tables + the file table and its journal). */
  dir: string
  parser: CodeParser
  /** The configured embeddings (null: lexical only). Read at each run, so a settings change applies. */
  embedder: () => Promise<{ embedder: Embedder; baseUrl: string } | null>
  onStatus?: (status: CodeIndexStatus) => void
  /** Files written to the store per batch. */
  batchFiles?: number
  /** Chunks per embeddings request. */
  embedBatch?: number
  /** Floats (vectors × dimension) past which the vectors get an ANN index (vector-store's default otherwise). */
  annIndexMinFloats?: number
}

export interface SearchOutcome {
  hits: SearchHit[]
  /** Notes for the model: index being refreshed, semantic search unavailable. */
  notes: string[]
  mode: 'hybrid' | 'lexical'
  /** False until a first full scan has finished: the hits cover part of the workspace at most. */
  complete: boolean
  /** Files indexed so far of those found, while the first build runs. */
  progress: { filesDone: number; filesTotal: number }
  /** Folders the last full scan did not enter, and why. */
  skipped: SkippedFolder[]
}

const MAX_CHUNK_CHARS = 8000
const MAX_RECENT_ERRORS = 5
/** Small table fragments left after a full pass, and piled up by the watcher's updates, before compacting. */
const SMALL_FRAGMENTS_AFTER_SYNC = 4
const SMALL_FRAGMENTS_BETWEEN_SYNCS = 64
/** Files whose vectors are stored (one table add) and recorded together. */
const EMBED_GROUP_FILES = 50
/** Chunks past which a group is embedded with fewer files (a minified bundle makes hundreds). */
const EMBED_GROUP_CHUNKS = 1_000
/** Chunks a build's vector pass may hold, not yet embedded, before the lexical pass waits for it. */
const VECTOR_BACKLOG_CHUNKS = 8_000
/** Embedding requests sent before the first of them is answered. */
const EMBED_REQUESTS_IN_FLIGHT = 3

/** New files a run asks the store about by name; past this it reads every stored path once. */
const FEW_NEW_FILES = 100
/** Files read ahead of the one being parsed. */
const READS_AHEAD = 16
/** Edited files up to this size are parsed as soon as the watcher sees them (before its debounce ends). */
const PARSE_AHEAD_MAX_BYTES = 128 * 1024

/** Chunk ids by line range; chunks of one long line (minified code) are told apart by their order in it. */
const withIds = (path: string, chunks: readonly Chunk[]): StoredChunk[] => {
  const seen = new Map<string, number>()
  return chunks.map((c) => {
    const range = `${path}#${c.startLine}-${c.endLine}`
    const earlier = seen.get(range) ?? 0
    seen.set(range, earlier + 1)
    return { ...c, id: earlier === 0 ? range : `${range}+${earlier}` }
  })
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex')

interface PendingBatch {
  removed: string[]
  chunks: StoredChunk[]
  recorded: string[]
  /** Files with new chunks (their vectors are to be made). */
  written: FileChunks[]
}

/** A file's chunks: what a vector pass embeds, in groups of files. */
interface FileChunks {
  path: string
  chunks: StoredChunk[]
}

type VectorRows = Array<{ id: string; path: string; vector: number[] }>

/** How a vector pass ended: every file handed to it embedded, cancelled, the endpoint failing, or vectors of another size. */
type EmbedOutcome =
  { kind: 'done' } | { kind: 'stopped' } | { kind: 'failed'; message: string } | { kind: 'otherDimension' }

type TextRead = Extract<FileRead, { kind: 'text' }>

/** A file against the index: gone (or not indexable), stat unchanged, content unchanged, or new content being parsed. */
type Prepared =
  | { kind: 'gone' }
  | { kind: 'same' }
  | { kind: 'restat'; read: TextRead }
  | { kind: 'read'; read: TextRead; hash: string; minified: boolean; definitions: Promise<Definition[] | null> }

/**
 * The index of one workspace: chunks in LanceDB (on disk, surviving restarts) with LanceDB's own
 * full-text (BM25) index, vectors from the configured embeddings. A kept index answers as soon as
 * it is opened; runs bring it up to date behind that. Runs are serialised; each is incremental by
 * file stat then content hash, and cancellable.
 */
export async function openCodeIndex(options: CodeIndexOptions) {
  const { root, parser } = options
  // Links are judged against the real root, whatever path the workspace was opened by.
  const rootReal = await realpath(root).catch(() => root)
  const batchFiles = options.batchFiles ?? 200
  const embedBatch = options.embedBatch ?? 64
  const storeDir = join(options.dir, 'lance')
  const storeOptions = { annIndexMinFloats: options.annIndexMinFloats }
  const book = await openIndexMeta(options.dir, root)
  const { meta } = book
  /** Deletes the tables and the bookkeeping: the next run indexes everything again. */
  const freshStore = async (): Promise<VectorStore> => {
    await rm(storeDir, { recursive: true, force: true })
    await book.reset()
    return openVectorStore(storeDir, storeOptions)
  }
  // No usable bookkeeping (first run, damaged, another version): whatever tables are there go too.
  // Tables that cannot be opened, or hold other columns, are rebuilt rather than failing every run.
  let store: VectorStore = book.fresh
    ? await freshStore()
    : await openVectorStore(storeDir, storeOptions).catch(freshStore)

  const countChunks = () => meta.files.chunkTotals()
  const readyMessage = () => `${meta.files.count} files, ${countChunks().total} chunks indexed.`
  // One truth for a ready index: the counts and the message both come from what is indexed (a kept
  // index opened from disk, or an update run that checked only the changed files, said "8 files
  // indexed" beside "0 / 0 files").
  const readyStatus = (message: string): Partial<CodeIndexStatus> => {
    const files = meta.files.count
    return { state: 'ready', filesDone: files, filesTotal: files, chunks: countChunks().total, message }
  }
  // A kept index is ready the moment it is opened: what is on disk answers while a run checks for changes.
  const status: CodeIndexStatus = meta.header.complete
    ? { ...idleStatus(root), ...readyStatus(readyMessage()) }
    : idleStatus(root)
  let controller: AbortController | null = null
  let running: Promise<void> = Promise.resolve()
  let closed = false

  const emit = (patch: Partial<CodeIndexStatus> = {}) => {
    Object.assign(status, patch)
    status.chunks = countChunks().total
    options.onStatus?.(structuredClone(status))
  }
  const noteError = (path: string, message: string) => {
    status.errors++
    status.recentErrors = [...status.recentErrors, { path, message }].slice(-MAX_RECENT_ERRORS)
  }

  /** Data files damaged behind a readable manifest: start over (the run that follows rebuilds). */
  const startOver = async () => {
    store.close()
    unrecorded = null
    store = await freshStore()
  }
  let checked = false
  let leftoversChecked = false
  let unrecorded: Promise<Set<string>> | null = null
  /**
   * Files the store holds and the table does not know: chunks a run stored and was killed before
   * recording. Read once per process (a pass over the path column), again after a failed run.
   */
  const unrecordedInStore = (): Promise<Set<string>> => {
    unrecorded ??= store.storedPaths().then((paths) => new Set([...paths].filter((p) => !meta.files.has(p))))
    return unrecorded
  }
  /** Which of these files, unknown to the table, the store holds: asked by name when few (a watcher's edit), else read once. */
  const leftoversAmong = async (paths: readonly string[]): Promise<Set<string>> => {
    const unknown = paths.filter((p) => !meta.files.has(p))
    if (unknown.length === 0) return new Set()
    if (unknown.length <= FEW_NEW_FILES && !unrecorded) return store.pathsAmong(unknown)
    return unrecordedInStore()
  }
  /** Once per process, before the first run writes: every data file of the store can be read. */
  const checkStore = async () => {
    if (checked) return
    checked = true
    if (!(await store.readable())) await startOver()
  }

  /**
   * Chunks and stores the given files (skips unchanged content), recording each batch once stored.
   * Three things overlap: the next files are read (libuv's pool) while one is parsed (this thread),
   * and a batch is written to the store (LanceDB's threads) while the next is prepared.
   */
  const indexFiles = async (
    paths: readonly string[],
    signal: AbortSignal,
    vectors?: { wrote(files: readonly FileChunks[]): void; room(): Promise<void> },
    /** Stats the caller has just taken (a full sync's), not taken again. */
    stats?: ReadonlyMap<string, FileStat>
  ): Promise<void> => {
    let pending: PendingBatch = { removed: [], chunks: [], recorded: [], written: [] }
    // One batch stored at a time, in order; a failure is thrown at the next flush or at the end.
    let storing: Promise<void> = Promise.resolve()
    const write = async (batch: PendingBatch) => {
      await store.removePaths(batch.removed)
      await store.addChunks(batch.chunks)
      await book.record(batch.recorded)
      vectors?.wrote(batch.written.filter((f) => meta.files.has(f.path)))
      emit()
      // The vector pass holds the chunks it has not embedded: past a bound, the next batch waits for it.
      await vectors?.room()
    }
    const flush = async () => {
      const batch = pending
      pending = { removed: [], chunks: [], recorded: [], written: [] }
      await storing
      if (batch.recorded.length === 0) return
      storing = write(batch)
      storing.catch(() => undefined) // awaited at the next flush; not an unhandled rejection meanwhile
    }
    const ahead: Array<Promise<Prepared>> = []
    let next = 0
    const leftovers = await leftoversAmong(paths)
    for (const path of paths) {
      if (signal.aborted) break
      while (next < paths.length && ahead.length < READS_AHEAD) {
        const upcoming = paths[next++]
        ahead.push(prepare(upcoming, stats?.get(upcoming)))
      }
      try {
        const known = meta.files.has(path)
        const change = await changeOf(path, await ahead.shift()!)
        if (change) {
          pending.recorded.push(path)
          // Only what the store may hold is deleted first: each delete scans the rows added since
          // the path index was last brought up to date, all of them in a first build.
          if (change.chunks && (known || leftovers.has(path))) pending.removed.push(path)
          if (change.chunks) pending.chunks.push(...change.chunks)
          if (change.chunks?.length) pending.written.push({ path, chunks: change.chunks })
        }
      } catch (err) {
        noteError(path, (err as Error).message)
      }
      status.filesDone++
      if (pending.recorded.length >= batchFiles || pending.chunks.length >= batchFiles * 20) await flush()
      else if (status.filesDone % 100 === 0) emit()
    }
    // Reads begun for files not reached (a cancel) are let finish unobserved.
    for (const left of ahead) left.catch(() => undefined)
    await flush()
    await storing
    emit()
  }

  /**
   * A file's check up to its parse: its stat, its content when the stat is not the recorded one, and
   * its parse when the content is not the recorded one. Run ahead of the file's turn, so the parse
   * (a worker's, with the worker parser) goes on while earlier files are chunked and stored.
   */
  const prepare = async (path: string, known?: FileStat): Promise<Prepared> => {
    // The stat decides first: an unchanged tree costs a stat per file, not a read.
    const info = known ?? (await statForIndex(rootReal, root, path))
    if (info.kind === 'skip') return { kind: 'gone' }
    if (meta.files.statMatches(path, info)) return { kind: 'same' }
    const read = await readForIndex(rootReal, root, path, info)
    if (read.kind === 'skip') return { kind: 'gone' }
    const hash = sha1(read.text)
    if (meta.files.get(path)?.hash === hash) return { kind: 'restat', read }
    // Minified or generated code is chunked by size, unparsed: its parse costs by the byte (a quarter
    // of node_modules' JavaScript bytes are in 4% of its files) and its definitions span whole lines.
    const minified = isMinified(read.text)
    const language = minified ? undefined : languageFor(path)
    const definitions = language ? parser.definitions(read.text, language) : Promise.resolve(null)
    definitions.catch(() => undefined) // awaited at the file's turn
    return { kind: 'read', read, hash, minified, definitions }
  }

  /**
   * What changed in a file whose stat differs from the one recorded: null when nothing did, no
   * chunks when only its stat did (same content hash), else its new chunks ([] once it went away).
   * The table is updated here; the caller stores the chunks, then records the file.
   */
  const changeOf = async (path: string, prepared: Prepared): Promise<{ chunks: StoredChunk[] | null } | null> => {
    switch (prepared.kind) {
      case 'gone':
        return meta.files.delete(path) ? { chunks: [] } : null
      case 'same':
        return null
      case 'restat':
        meta.files.restat(path, prepared.read)
        return { chunks: null }
      case 'read': {
        const { read, hash } = prepared
        const pieces = prepared.minified
          ? chunkBySize(path, read.text)
          : chunkFile(path, read.text, await prepared.definitions)
        const chunks = withIds(path, pieces).map((c) =>
          c.text.length > MAX_CHUNK_CHARS ? { ...c, text: c.text.slice(0, MAX_CHUNK_CHARS) } : c
        )
        const { size, mtimeMs, ino } = read
        meta.files.set(path, { hash, size, mtimeMs, ino, chunks: chunks.length, embedded: false })
        return { chunks }
      }
    }
  }

  const removeFiles = async (paths: readonly string[]) => {
    const gone = paths.filter((p) => meta.files.has(p))
    if (gone.length === 0) return
    await store.removePaths(gone)
    for (const path of gone) meta.files.delete(path)
    await book.record(gone)
  }

  /**
   * The chunks' vectors, in their order: requests of `embedBatch` texts, a few in flight at once (an
   * endpoint answers one while the next is sent). The first failure stops the others and is thrown.
   */
  const embedChunks = async (embedder: Embedder, chunks: readonly StoredChunk[], signal: AbortSignal) => {
    const vectors = new Array<number[]>(chunks.length)
    let next = 0
    let failed = false
    const sender = async () => {
      while (next < chunks.length && !failed && !signal.aborted) {
        const at = next
        next += embedBatch
        const batch = chunks.slice(at, at + embedBatch)
        try {
          const got = await embedder.embed(
            batch.map((c) => c.text),
            signal
          )
          got.forEach((vector, k) => (vectors[at + k] = vector))
        } catch (err) {
          failed = true
          throw err
        }
        status.semantic.chunksEmbedded += batch.length
        emit()
      }
    }
    await Promise.all(Array.from({ length: EMBED_REQUESTS_IN_FLIGHT }, sender))
    return vectors
  }

  /**
   * Embeds the files `nextGroup` hands out (null: no more), a group at a time: a group's vectors are
   * stored in one add (each add is a table fragment), then recorded. While a group is stored, the
   * next group's chunks are read and its requests are out.
   */
  const embedGroups = async (
    { embedder, baseUrl }: { embedder: Embedder; baseUrl: string },
    nextGroup: () => Promise<{ paths: string[]; chunks: StoredChunk[] } | null>,
    signal: AbortSignal
  ): Promise<EmbedOutcome> => {
    let storing: Promise<void> = Promise.resolve()
    const storeGroup = async (paths: readonly string[], rows: VectorRows, dimension: number) => {
      await store.addVectors(rows, dimension)
      for (const path of paths) meta.files.setEmbedded(path, true)
      await book.record(paths.filter((p) => meta.files.has(p)))
    }
    const ahead = () => {
      const read = nextGroup()
      read.catch(() => undefined) // awaited when its turn comes
      return read
    }
    let next = ahead()
    for (;;) {
      if (signal.aborted) return (await storing, { kind: 'stopped' })
      const group = await next
      if (!group) break
      next = ahead()
      const { paths, chunks } = group
      let vectors: number[][]
      try {
        vectors = await embedChunks(embedder, chunks, signal)
      } catch (err) {
        await storing
        if (signal.aborted) return { kind: 'stopped' }
        const message = err instanceof EmbeddingsError ? err.message : `Embedding failed: ${(err as Error).message}`
        return { kind: 'failed', message }
      }
      if (signal.aborted) return (await storing, { kind: 'stopped' })
      const dimension = vectors[0]?.length ?? 0
      if (meta.header.embedding && vectors.some((v) => v.length !== meta.header.embedding?.dimension)) {
        await storing
        return { kind: 'otherDimension' }
      }
      if (!meta.header.embedding && dimension > 0) {
        // Written before any file is recorded as embedded: a journal line never names vectors of an unknown model.
        meta.header.embedding = { baseUrl, model: embedder.model, dimension }
        await book.save()
      }
      status.semantic.dimension = dimension
      await storing
      storing = storeGroup(
        paths,
        chunks.map((c, k) => ({ id: c.id, path: c.path, vector: vectors[k] })),
        dimension
      )
      storing.catch(() => undefined) // awaited before the next group is stored, and at the end
    }
    await storing
    return { kind: 'done' }
  }

  /** The configured embedder when its vectors are comparable with those stored (none stored yet, or the same model). */
  const sameEmbedder = async () => {
    const configured = await options.embedder()
    const recorded = meta.header.embedding
    if (!configured) return null
    if (recorded && (recorded.model !== configured.embedder.model || recorded.baseUrl !== configured.baseUrl))
      return null
    return configured
  }

  /**
   * The vector pass beside the lexical one in a full run: files are embedded as their chunks are
   * stored (the endpoint works while the next files are parsed), in groups. What it leaves (files
   * of earlier runs, another model) is embedded after the lexical pass by `embedMissing`.
   */
  const followWrites = async (signal: AbortSignal) => {
    const configured = await sameEmbedder()
    if (!configured) return null
    // Written files waiting for their vectors, with their chunks (not read back from the store).
    const queue: FileChunks[] = []
    let queued = 0
    let ended = false
    let over = false
    let wake: (() => void) | null = null
    let roomMade: (() => void) | null = null
    const woken = () => {
      wake?.()
      wake = null
    }
    const groupReady = () => queue.length >= EMBED_GROUP_FILES || queued >= EMBED_GROUP_CHUNKS
    const nextGroup = async (): Promise<{ paths: string[]; chunks: StoredChunk[] } | null> => {
      while (!groupReady() && !ended) await new Promise<void>((resolve) => (wake = resolve))
      const paths: string[] = []
      const chunks: StoredChunk[] = []
      while (queue.length > 0 && paths.length < EMBED_GROUP_FILES && chunks.length < EMBED_GROUP_CHUNKS) {
        const file = queue.shift()!
        paths.push(file.path)
        chunks.push(...file.chunks)
      }
      queued -= chunks.length
      roomMade?.()
      return paths.length > 0 ? { paths, chunks } : null
    }
    const outcome = embedGroups(configured, nextGroup, signal).finally(() => {
      // Stopped (or failed): what is queued is left to the pass after the lexical one.
      over = true
      queue.length = 0
      queued = 0
      roomMade?.()
    })
    outcome.catch(() => undefined) // awaited once the lexical pass is done
    return {
      /** These files' chunks are stored and recorded. */
      wrote(files: readonly FileChunks[]) {
        if (over) return
        for (const file of files) queue.push(file)
        queued += files.reduce((sum, f) => sum + f.chunks.length, 0)
        if (groupReady()) woken()
      },
      /** Resolves once the chunks waiting for vectors are few enough (at once when they are). */
      async room() {
        while (!over && queued > VECTOR_BACKLOG_CHUNKS) await new Promise<void>((resolve) => (roomMade = resolve))
      },
      /** The lexical pass is over: what is left is embedded, and the status says the vectors are being made. */
      end() {
        ended = true
        woken()
        if (signal.aborted) return
        const counts = countChunks()
        status.semantic = {
          state: 'embedding',
          model: configured.embedder.model,
          dimension: meta.header.embedding?.dimension,
          chunksEmbedded: counts.embedded,
          chunksTotal: counts.total
        }
        emit({ message: `Embedding ${queue.length} files with ${configured.embedder.model}…` })
      },
      outcome
    }
  }

  /** Vectors for every file not embedded with the configured model; a failure leaves lexical search as it is. */
  const embedMissing = async (signal: AbortSignal, followed?: EmbedOutcome) => {
    const configured = await options.embedder()
    const counts = countChunks()
    if (!configured) {
      status.semantic = { state: 'off', chunksEmbedded: 0, chunksTotal: counts.total }
      return
    }
    const { embedder, baseUrl } = configured
    const stopped = () => {
      // Vectors embedded but not stored are dropped: the count says what search can use.
      status.semantic.chunksEmbedded = countChunks().embedded
    }
    const failed = (message: string) => {
      stopped()
      status.semantic = { ...status.semantic, state: 'failed', message }
    }
    // The endpoint failed while following the lexical pass: asking it again would fail the same way.
    if (followed?.kind === 'failed') return failed(followed.message)
    const recorded = meta.header.embedding
    if (recorded && (recorded.model !== embedder.model || recorded.baseUrl !== baseUrl)) {
      // Another model: its vectors are not comparable with the old ones; embed everything again.
      await dropAllVectors()
    }
    const todo = meta.files.notEmbedded()
    // A process killed between storing a group's vectors and recording it left vectors of files
    // still listed as not embedded: they go before those files are embedded again (once per process).
    if (!leftoversChecked && todo.length > 0 && meta.header.embedding) await store.removeVectorsOf(todo)
    leftoversChecked = true
    status.semantic = {
      state: 'embedding',
      model: embedder.model,
      dimension: meta.header.embedding?.dimension,
      chunksEmbedded: countChunks().embedded,
      chunksTotal: counts.total
    }
    emit({ message: `Embedding ${todo.length} files with ${embedder.model}…` })
    let at = 0
    const nextGroup = async () => {
      if (at >= todo.length) return null
      const paths = todo.slice(at, (at += EMBED_GROUP_FILES))
      return { paths, chunks: await store.chunksOf(paths) }
    }
    const outcome = await embedGroups(configured, nextGroup, signal)
    switch (outcome.kind) {
      case 'stopped':
        return stopped()
      case 'failed':
        return failed(outcome.message)
      case 'otherDimension':
        // Same model name, other vector size (the server changed it): start the vectors over.
        await dropAllVectors()
        return embedMissing(signal)
      case 'done':
        if (!signal.aborted)
          status.semantic = {
            ...status.semantic,
            state: 'ready',
            chunksEmbedded: countChunks().embedded,
            chunksTotal: countChunks().total
          }
    }
  }

  const dropAllVectors = async () => {
    await store.dropVectors()
    meta.header.embedding = null
    meta.files.clearEmbedded()
    await book.save()
  }

  const finish = (signal: AbortSignal) => {
    // Vectors embedded but not stored are dropped: the count says what search can use.
    if (signal.aborted) status.semantic.chunksEmbedded = countChunks().embedded
    if (signal.aborted && status.semantic.state === 'embedding') {
      // The lexical index is whole; the vectors stored so far are kept and the rest are made on resume.
      status.semantic = { ...status.semantic, state: 'pending' }
      return emit({
        state: 'cancelled',
        message: `Embedding cancelled at ${status.semantic.chunksEmbedded} of ${status.semantic.chunksTotal} chunks; search uses what is indexed.`
      })
    }
    if (signal.aborted)
      return emit({
        state: 'cancelled',
        message: `Indexing cancelled at ${status.filesDone} of ${status.filesTotal} files; search uses what is indexed.`
      })
    const semantic = status.semantic.state === 'failed' ? ' Semantic search unavailable; lexical search works.' : ''
    emit(readyStatus(`${readyMessage()}${semantic}`))
  }

  /** Serialises runs: one at a time, in order. The store is checked first unless the work does it itself. */
  const enqueue = (work: (signal: AbortSignal) => Promise<void>, { checksStore = false } = {}): Promise<void> => {
    const next = running.then(async () => {
      if (closed) return
      controller = new AbortController()
      const { signal } = controller
      try {
        if (!checksStore) await checkStore()
        await work(signal)
      } catch (err) {
        unrecorded = null // what the failed run stored may not be recorded
        emit({ state: 'error', message: `Indexing failed: ${(err as Error).message}` })
      } finally {
        controller = null
      }
    })
    running = next.catch(() => undefined)
    return next
  }

  /** The files whose stat is not the recorded one: new, changed, or no longer indexable. */
  const changedFiles = (paths: readonly string[], stats: readonly FileStat[]): string[] =>
    paths.filter((path, i) => {
      const info = stats[i]
      return info.kind === 'file' ? !meta.files.statMatches(path, info) : meta.files.has(path)
    })

  /** A full scan finished: the index covers the workspace; the header is written only when it changed. */
  const settleScan = async (skipped: SkippedFolder[]) => {
    if (meta.header.complete && JSON.stringify(meta.header.skipped) === JSON.stringify(skipped)) return
    meta.header.complete = true
    meta.header.skipped = skipped
    await book.save()
  }

  /**
   * The vectors' ANN index, made (when they have passed its size) in a run of its own after a full
   * sync: the sync is done and its status ready first, and searches scan meanwhile. A failure
   * leaves the scan answering; the next sync tries again.
   */
  const indexVectorsAfter = (done: Promise<void>): Promise<void> => {
    running = running.then(async () => {
      if (!closed) await store.indexVectors().catch(() => false)
    })
    return done
  }

  /** Brings the index in line with the workspace: new and changed files indexed, removed ones dropped. */
  const syncFiles = () =>
    enqueue(
      async (signal) => {
        // The store's check (a pass over its data files, once per process) runs in LanceDB's threads
        // beside the walk and the stats; the bookkeeping is read only once it is done (it may start over).
        const checking = checkStore()
        checking.catch(() => undefined) // awaited below
        const scan = await scanWorkspace(root)
        status.errors = 0
        status.recentErrors = []
        const verb = meta.header.complete ? 'Checking' : 'Indexing'
        emit({
          state: 'indexing',
          filesDone: 0,
          filesTotal: scan.files.length,
          message: `${verb} ${scan.files.length} files…`
        })
        // Stats only: a file is read when its stat differs from the recorded one (or it is new, or went away).
        const stats = await statAll(rootReal, root, scan.files)
        await checking
        const present = new Set(scan.files)
        await removeFiles(meta.files.allPaths().filter((p) => !present.has(p)))
        const changed = changedFiles(scan.files, stats)
        emit({ filesDone: scan.files.length - changed.length })
        const vectors = await followWrites(signal)
        try {
          const statOf = new Map(scan.files.map((path, i) => [path, stats[i]]))
          await indexFiles(changed, signal, vectors ?? undefined, statOf)
        } finally {
          vectors?.end()
        }
        if (!signal.aborted) await settleScan(scan.skipped)
        const followed = await vectors?.outcome
        if (!signal.aborted) await embedMissing(signal, followed)
        if (!signal.aborted) await store.compact(SMALL_FRAGMENTS_AFTER_SYNC)
        await book.settle()
        directories = scan.directories
        finish(signal)
      },
      { checksStore: true }
    )

  /** A full sync, then the vectors' ANN index if they need one. */
  const sync = () => indexVectorsAfter(syncFiles())

  /** Re-indexes the named files only (from the watcher). */
  const update = (paths: readonly string[]) =>
    enqueue(async (signal) => {
      const candidates = await candidatesAmong(root, paths)
      const keep = paths.filter((p) => candidates.has(p))
      const drop = paths.filter((p) => !candidates.has(p))
      await removeFiles(drop)
      emit({
        state: 'indexing',
        filesDone: 0,
        filesTotal: keep.length,
        message: `Updating ${keep.length} changed files…`
      })
      await indexFiles(keep, signal)
      if (!signal.aborted) await embedMissing(signal)
      // Edits come one or two files at a time: compacting after each would rewrite the tables each time.
      if (!signal.aborted) await store.compact(SMALL_FRAGMENTS_BETWEEN_SYNCS)
      await book.settle()
      finish(signal)
    })

  let directories: string[] = [root]

  /**
   * A small edited file read and parsed while the watcher's debounce runs: its update finds the parse
   * done when the text is still the same (the worker parser keeps it), else parses it again.
   */
  const parseAhead = async (path: string, spec: LanguageSpec) => {
    try {
      const info = await statForIndex(rootReal, root, path)
      if (info.kind !== 'file' || info.size > PARSE_AHEAD_MAX_BYTES) return
      const read = await readForIndex(rootReal, root, path, info)
      if (read.kind === 'text') parser.warm?.(spec, read.text)
    } catch {
      // the file went away or cannot be read: its update says so
    }
  }

  /** The language most of the indexed files are written in (null: none with a grammar). */
  const mainLanguage = () => {
    const counts = new Map<string, { spec: LanguageSpec; files: number }>()
    for (const path of meta.files.allPaths()) {
      const spec = languageFor(path)
      if (!spec) continue
      const entry = counts.get(spec.id) ?? { spec, files: 0 }
      entry.files++
      counts.set(spec.id, entry)
    }
    return [...counts.values()].sort((a, b) => b.files - a.files)[0]?.spec ?? null
  }

  const search = async (
    query: string,
    opts: { limit: number; pathPrefix?: string; signal?: AbortSignal }
  ): Promise<SearchOutcome> => {
    const notes: string[] = []
    const complete = meta.header.complete
    const refreshing = complete && status.state === 'indexing'
    if (refreshing)
      notes.push(
        `The index is being brought up to date (${status.filesDone} of ${status.filesTotal} files checked): files changed since the last run may be missing or stale.`
      )
    const prefix = opts.pathPrefix
    const pool = Math.max(opts.limit * 5, 50)
    const configured = await options.embedder()
    // Vectors are asked for once a first build is done: before that the query's embedding is wasted.
    const indexing = !complete
    const recorded = meta.header.embedding
    const sameModel =
      configured && recorded && recorded.model === configured.embedder.model && recorded.baseUrl === configured.baseUrl
    const counts = countChunks()
    const hybrid = configured && !indexing && sameModel && counts.embedded >= counts.total
    // The full-text search runs while the query is embedded and its vectors searched; alone, its hits
    // come with their chunks. (Asking it for `limit` hits, not `pool`, would be faster alone, but
    // LanceDB orders equal scores differently then, so another chunk of a tie could be shown.)
    const lexicalSearch = store.searchText(query, pool, prefix, !hybrid).catch((): LexicalHit[] => [])
    let semantic: VectorHit[] = []
    // Fused with vectors that cover part of the chunks, a chunk without one ranks below every chunk
    // with one, however exact its words: until the vectors are whole the ranking is lexical.
    if (configured && !indexing && sameModel && counts.embedded < counts.total) {
      notes.push(
        status.semantic.state === 'failed' && status.semantic.message
          ? `Semantic search unavailable (${status.semantic.message}): results are lexical only.`
          : `Semantic vectors cover ${counts.embedded} of ${counts.total} chunks (still being made): results are lexical only until they are done.`
      )
    } else if (configured && !indexing && sameModel) {
      try {
        const [vector] = await configured.embedder.embed([query], opts.signal)
        if (recorded && vector.length === recorded.dimension) semantic = await store.searchVectors(vector, pool, prefix)
      } catch (err) {
        notes.push(`Semantic search unavailable (${(err as Error).message}): results are lexical only.`)
      }
    } else if (configured && !indexing) {
      notes.push(
        status.semantic.message
          ? `Semantic search unavailable (${status.semantic.message}): results are lexical only.`
          : 'Semantic vectors are not built yet: results are lexical only.'
      )
    }
    const lexical = await lexicalSearch
    const top = fuseRankings(lexical, semantic).slice(0, opts.limit)
    // One read of the chunks shown that the full-text search did not return (a chunk removed meanwhile is left out).
    const chunks = new Map(lexical.flatMap((h) => (h.chunk ? [[h.id, h.chunk] as const] : [])))
    const missing = top.filter((h) => !chunks.has(h.id)).map((h) => h.id)
    if (missing.length > 0) for (const [id, chunk] of await store.chunksById(missing)) chunks.set(id, chunk)
    const hits = top.flatMap((h) => {
      const chunk = chunks.get(h.id)
      return chunk ? [{ ...h, chunk }] : []
    })
    return {
      hits,
      notes,
      mode: semantic.length > 0 ? 'hybrid' : 'lexical',
      complete,
      progress: { filesDone: status.filesDone, filesTotal: status.filesTotal },
      skipped: meta.header.skipped
    }
  }

  return {
    root,
    status: (): CodeIndexStatus => structuredClone({ ...status, chunks: countChunks().total }),
    /** A first full scan has finished (now or in an earlier process): searches answer from the index. */
    isComplete: () => meta.header.complete,
    sync,
    update,
    search,
    /**
     * Readies the parser for these files (an edit the watcher saw, before its debounce ends: small
     * ones are parsed now), or for the workspace's main language: the one-file update that follows
     * does not wait for the worker to start. Resolves once the parses ahead are sent.
     */
    async warmParser(paths?: readonly string[]): Promise<void> {
      if (!parser.warm) return
      if (!paths) {
        const main = mainLanguage()
        if (main) parser.warm(main)
        return
      }
      const ahead = paths.flatMap((path) => {
        const spec = languageFor(path)
        if (!spec) return []
        parser.warm?.(spec)
        return [parseAhead(path, spec)]
      })
      await Promise.all(ahead)
    },
    /** Directories the last full scan walked (the watcher watches them). */
    directories: () => directories,
    cancel() {
      controller?.abort()
    },
    /** Drops everything and builds again (after a settings change or on request). */
    rebuild() {
      controller?.abort()
      return enqueue(async () => {
        await store.clear()
        unrecorded = Promise.resolve(new Set())
        await book.reset()
      }).then(sync)
    },
    async whenIdle(): Promise<void> {
      await running
    },
    async close(): Promise<void> {
      closed = true
      controller?.abort()
      await running
      store.close()
    },
    /** Closes and deletes the index from disk. */
    async destroy(): Promise<void> {
      await this.close()
      await rm(options.dir, { recursive: true, force: true })
    }
  }
}

export type CodeIndex = Awaited<ReturnType<typeof openCodeIndex>>
