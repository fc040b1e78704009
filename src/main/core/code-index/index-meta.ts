import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-write'
import { FileTable, type IndexedFile } from './file-table'

/** Which embeddings the vectors on disk come from; a different one means re-embedding. */
const EmbeddingIdentity = z.object({ baseUrl: z.string(), model: z.string(), dimension: z.number().int().positive() })
export type EmbeddingIdentity = z.infer<typeof EmbeddingIdentity>

/** A folder the last full scan did not enter, and why (the tools name them to the model). */
const SkippedFolder = z.object({ path: z.string(), reason: z.enum(['built-in', 'gitignore', 'ignore-file']) })
export type SkippedFolder = z.infer<typeof SkippedFolder>

const Header = z.object({
  // 3: the file table in columns (files.bin) plus a journal of changes (files.log); 2 kept it all in meta.json.
  version: z.literal(3),
  root: z.string(),
  embedding: EmbeddingIdentity.nullable(),
  /** A full scan has finished once: the index covers the workspace as of then and answers from disk. */
  complete: z.boolean(),
  skipped: z.array(SkippedFolder),
  /** Which journal continues this snapshot (a journal of another generation is older and ignored). */
  generation: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  pathBytes: z.number().int().nonnegative()
})
type Header = z.infer<typeof Header>
export type IndexHeader = Pick<Header, 'root' | 'embedding' | 'complete' | 'skipped'>

const FileRecord = z.object({
  hash: z.string().regex(/^[0-9a-f]{40}$/),
  size: z.number(),
  mtimeMs: z.number(),
  ino: z.number(),
  chunks: z.number().int().nonnegative(),
  embedded: z.boolean()
})
/** One journal line: a file's state after a change, or null once it left the index. */
const JournalLine = z.object({ p: z.string(), f: FileRecord.nullable() })
const JournalStart = z.object({ generation: z.number().int().nonnegative() })

/** The bookkeeping of index format 2 (one JSON file), read once to carry a kept index over. */
const MetaV2 = z.object({
  version: z.literal(2),
  root: z.string(),
  embedding: EmbeddingIdentity.nullable(),
  complete: z.boolean(),
  skipped: z.array(SkippedFolder),
  files: z.record(z.string(), FileRecord.omit({ ino: true }))
})

const MAGIC = Buffer.from('MDXI')
const SNAPSHOT = 'files.bin'
const JOURNAL = 'files.log'
const META_V2 = 'meta.json'
const HASH_BYTES = 20
/** Journal lines past which the end of a run writes a new snapshot (and starts the journal over). */
const JOURNAL_LINES_BEFORE_SNAPSHOT = 2_000

export interface IndexMeta {
  header: IndexHeader
  files: FileTable
}

const emptyHeader = (root: string): IndexHeader => ({ root, embedding: null, complete: false, skipped: [] })

/** The snapshot: a magic, the header's length and JSON, then the file table's columns. */
function encodeSnapshot(meta: IndexMeta, generation: number): Buffer {
  const columns = meta.files.columns()
  const paths = Buffer.from(columns.paths.join('\0'), 'utf8')
  const header: Header = {
    version: 3,
    ...meta.header,
    generation,
    files: columns.paths.length,
    pathBytes: paths.length
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const length = Buffer.alloc(4)
  length.writeUInt32LE(json.length)
  const bytes = (a: Float64Array | Uint32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  return Buffer.concat([
    MAGIC,
    length,
    json,
    bytes(columns.size),
    bytes(columns.mtimeMs),
    bytes(columns.ino),
    bytes(columns.chunks),
    bytes(columns.embedded),
    bytes(columns.hashes),
    paths
  ])
}

function decodeHeader(data: Buffer): { header: Header; at: number } | null {
  if (data.length < 8 || !data.subarray(0, 4).equals(MAGIC)) return null
  const length = data.readUInt32LE(4)
  try {
    const parsed = Header.safeParse(JSON.parse(data.subarray(8, 8 + length).toString('utf8')))
    return parsed.success ? { header: parsed.data, at: 8 + length } : null
  } catch {
    return null
  }
}

function decodeSnapshot(data: Buffer): { meta: IndexMeta; generation: number } | null {
  const decoded = decodeHeader(data)
  if (!decoded) return null
  const { header } = decoded
  const n = header.files
  let at = decoded.at
  if (data.length !== at + n * (8 + 8 + 8 + 4 + 1 + HASH_BYTES) + header.pathBytes) return null
  // Each column copied out of the file's bytes into a buffer of its own (aligned for its typed array).
  const take = (bytes: number): ArrayBuffer => {
    const copy = new Uint8Array(bytes)
    copy.set(data.subarray(at, (at += bytes)))
    return copy.buffer
  }
  const size = new Float64Array(take(n * 8))
  const mtimeMs = new Float64Array(take(n * 8))
  const ino = new Float64Array(take(n * 8))
  const chunks = new Uint32Array(take(n * 4))
  const embedded = new Uint8Array(take(n))
  const hashes = new Uint8Array(take(n * HASH_BYTES))
  const paths = n === 0 ? [] : Buffer.from(take(header.pathBytes)).toString('utf8').split('\0')
  if (paths.length !== n || new Set(paths).size !== n) return null
  const files = FileTable.fromColumns({ paths, size, mtimeMs, ino, chunks, embedded, hashes })
  const { root, embedding, complete, skipped } = header
  return { meta: { header: { root, embedding, complete, skipped }, files }, generation: header.generation }
}

/** Applies the journal's lines of this generation; a torn last line (a write cut short) ends it. */
function replayJournal(text: string, generation: number, files: FileTable): number {
  const lines = text.split('\n')
  try {
    const start = JournalStart.safeParse(JSON.parse(lines[0]))
    if (!start.success || start.data.generation !== generation) return 0
  } catch {
    return 0
  }
  let applied = 0
  for (const line of lines.slice(1)) {
    if (!line) continue
    let parsed
    try {
      parsed = JournalLine.safeParse(JSON.parse(line))
    } catch {
      break
    }
    if (!parsed.success) break
    const { p, f } = parsed.data
    if (f) files.set(p, f)
    else files.delete(p)
    applied++
  }
  return applied
}

/** A kept index of format 2: its file records become the table (inodes unknown until each file is read again). */
async function carryOverV2(dir: string, root: string): Promise<IndexMeta | null> {
  const text = await readFile(join(dir, META_V2), 'utf8').catch(() => null)
  if (text === null) return null
  try {
    const parsed = MetaV2.safeParse(JSON.parse(text))
    if (!parsed.success || parsed.data.root !== root) return null
    const files = new FileTable()
    for (const [path, file] of Object.entries(parsed.data.files)) files.set(path, { ...file, ino: 0 })
    const { embedding, complete, skipped } = parsed.data
    return { header: { root, embedding, complete, skipped }, files }
  } catch {
    return null
  }
}

/** Whether a finished index of this workspace is on disk (its header says a full scan completed). */
export async function keptIndexComplete(dir: string, root: string): Promise<boolean> {
  const data = await readFile(join(dir, SNAPSHOT)).catch(() => null)
  const decoded = data && decodeHeader(data)
  if (decoded) return decoded.header.root === root && decoded.header.complete
  return (await carryOverV2(dir, root))?.header.complete ?? false
}

/**
 * The index's bookkeeping beside the LanceDB tables: a snapshot of the file table, written whole
 * (atomically) now and then, and a journal that each store write appends its files' new state to.
 * A batch of the build or an edited file costs a few journal lines, not a rewrite of every file's
 * record (a 3 MB JSON file, rewritten after each batch, made a build quadratic). The journal is
 * appended only after the store holds what it records, so the bookkeeping is never ahead of it.
 */
export async function openIndexMeta(dir: string, root: string) {
  const snapshotFile = join(dir, SNAPSHOT)
  const journalFile = join(dir, JOURNAL)
  let generation = 0
  let journalLines = 0
  /** Whether the journal file holds this generation's start line. */
  let journalStarted = false
  let fresh = true
  let meta: IndexMeta = { header: emptyHeader(root), files: new FileTable() }

  const data = await readFile(snapshotFile).catch(() => null)
  const decoded = data && decodeSnapshot(data)
  if (decoded && decoded.meta.header.root === root) {
    meta = decoded.meta
    generation = decoded.generation
    const journal = await readFile(journalFile, 'utf8').catch(() => '')
    journalLines = replayJournal(journal, generation, meta.files)
    journalStarted = journalLines > 0
    fresh = false
  } else if (!data) {
    const carried = await carryOverV2(dir, root)
    if (carried) {
      meta = carried
      fresh = false
    }
  }

  // Writes one at a time: the vector pass records files while the lexical pass records others, and
  // two first appends would each open the journal for writing anew.
  let writing: Promise<void> = Promise.resolve()
  const serially = (write: () => Promise<void>): Promise<void> => {
    const next = writing.then(write)
    writing = next.catch(() => undefined)
    return next
  }

  /** Writes the whole table and header; the journal starts over. */
  const save = (): Promise<void> => serially(saveNow)
  const saveNow = async (): Promise<void> => {
    generation++
    await writeFileAtomic(snapshotFile, encodeSnapshot(meta, generation))
    journalLines = 0
    journalStarted = false
    await rm(join(dir, META_V2), { force: true })
  }

  /** Appends the current state of these files (or their removal) to the journal. */
  const appendNow = async (paths: readonly string[]): Promise<void> => {
    const lines = paths.map((p) =>
      JSON.stringify({ p, f: meta.files.get(p) ?? null } satisfies z.infer<typeof JournalLine>)
    )
    const start = journalStarted ? '' : `${JSON.stringify({ generation })}\n`
    const handle = await open(journalFile, journalStarted ? 'a' : 'w')
    try {
      await handle.writeFile(`${start}${lines.join('\n')}\n`)
      await handle.datasync()
    } finally {
      await handle.close()
    }
    journalStarted = true
    journalLines += lines.length
  }

  return {
    meta,
    /** No usable bookkeeping was on disk (first run, damaged, another version, another root). */
    fresh,
    save,
    /** Appends the current state of these files (or their removal) to the journal, after any write begun. */
    record(paths: readonly string[]): Promise<void> {
      return paths.length === 0 ? Promise.resolve() : serially(() => appendNow(paths))
    },
    /** Writes a snapshot once the journal is long (the end of a run); a short journal stays. */
    async settle(): Promise<void> {
      if (journalLines > JOURNAL_LINES_BEFORE_SNAPSHOT) await save()
    },
    /** Forgets every file and the header: the next run indexes everything again. */
    async reset(): Promise<void> {
      meta.header = emptyHeader(root)
      meta.files = new FileTable()
      await save()
    }
  }
}

export type IndexMetaStore = Awaited<ReturnType<typeof openIndexMeta>>
export type { IndexedFile }
