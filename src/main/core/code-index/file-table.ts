/** What the index knows of one file: its stat when read, its content hash, and what it holds. */
export interface IndexedFile {
  /** SHA-1 of the content, hex. */
  hash: string
  size: number
  mtimeMs: number
  /** Inode number when read; 0 when unknown (a table written before inodes were kept). */
  ino: number
  chunks: number
  /** All its chunks have vectors of the recorded model. */
  embedded: boolean
}

const HASH_BYTES = 20
const INITIAL_CAPACITY = 256

/**
 * The index's per-file bookkeeping in columns: one typed array per field and one string per path,
 * not one object per file (17.5k files took 7.4 MB of heap as objects, and every status update
 * walked them to count chunks). Rows are dense: a removed row takes the last row's place. The
 * chunk totals are kept as rows change.
 */
export class FileTable {
  private rows = new Map<string, number>()
  private paths: string[] = []
  private size = new Float64Array(INITIAL_CAPACITY)
  private mtimeMs = new Float64Array(INITIAL_CAPACITY)
  private ino = new Float64Array(INITIAL_CAPACITY)
  private chunks = new Uint32Array(INITIAL_CAPACITY)
  private embedded = new Uint8Array(INITIAL_CAPACITY)
  private hashes = new Uint8Array(INITIAL_CAPACITY * HASH_BYTES)
  private totals = { chunks: 0, embedded: 0 }

  get count(): number {
    return this.paths.length
  }

  /** Chunks held, and of them those with vectors. */
  chunkTotals(): { total: number; embedded: number } {
    return { total: this.totals.chunks, embedded: this.totals.embedded }
  }

  has(path: string): boolean {
    return this.rows.has(path)
  }

  get(path: string): IndexedFile | undefined {
    const row = this.rows.get(path)
    if (row === undefined) return undefined
    return {
      hash: Buffer.from(this.hashes.subarray(row * HASH_BYTES, (row + 1) * HASH_BYTES)).toString('hex'),
      size: this.size[row],
      mtimeMs: this.mtimeMs[row],
      ino: this.ino[row],
      chunks: this.chunks[row],
      embedded: this.embedded[row] === 1
    }
  }

  /** Whether the file's stat is the one recorded when it was read (an unknown inode is not compared). */
  statMatches(path: string, stat: { size: number; mtimeMs: number; ino: number }): boolean {
    const row = this.rows.get(path)
    if (row === undefined) return false
    const ino = this.ino[row]
    return this.size[row] === stat.size && this.mtimeMs[row] === stat.mtimeMs && (ino === 0 || ino === stat.ino)
  }

  set(path: string, file: IndexedFile): void {
    let row = this.rows.get(path)
    if (row === undefined) {
      row = this.paths.length
      this.grow(row + 1)
      this.paths.push(path)
      this.rows.set(path, row)
    } else this.removeFromTotals(row)
    this.size[row] = file.size
    this.mtimeMs[row] = file.mtimeMs
    this.ino[row] = file.ino
    this.chunks[row] = file.chunks
    this.embedded[row] = file.embedded ? 1 : 0
    this.hashes.set(Buffer.from(file.hash, 'hex').subarray(0, HASH_BYTES), row * HASH_BYTES)
    this.addToTotals(row)
  }

  /** Records a new stat for a file whose content was found unchanged. */
  restat(path: string, stat: { size: number; mtimeMs: number; ino: number }): void {
    const row = this.rows.get(path)
    if (row === undefined) return
    this.size[row] = stat.size
    this.mtimeMs[row] = stat.mtimeMs
    this.ino[row] = stat.ino
  }

  setEmbedded(path: string, embedded: boolean): void {
    const row = this.rows.get(path)
    if (row === undefined) return
    this.removeFromTotals(row)
    this.embedded[row] = embedded ? 1 : 0
    this.addToTotals(row)
  }

  /** Every file needs vectors again (another model). */
  clearEmbedded(): void {
    this.embedded.fill(0)
    this.totals.embedded = 0
  }

  delete(path: string): boolean {
    const row = this.rows.get(path)
    if (row === undefined) return false
    this.removeFromTotals(row)
    const last = this.paths.length - 1
    if (row !== last) {
      const moved = this.paths[last]
      this.paths[row] = moved
      this.rows.set(moved, row)
      this.size[row] = this.size[last]
      this.mtimeMs[row] = this.mtimeMs[last]
      this.ino[row] = this.ino[last]
      this.chunks[row] = this.chunks[last]
      this.embedded[row] = this.embedded[last]
      this.hashes.copyWithin(row * HASH_BYTES, last * HASH_BYTES, (last + 1) * HASH_BYTES)
    }
    this.paths.pop()
    this.rows.delete(path)
    return true
  }

  allPaths(): string[] {
    return [...this.paths]
  }

  /** Files with chunks but no vectors yet, in row order. */
  notEmbedded(): string[] {
    return this.paths.filter((_, row) => this.embedded[row] === 0 && this.chunks[row] > 0)
  }

  /** The columns as they are (for writing to disk), trimmed to the rows in use. */
  columns() {
    const n = this.paths.length
    return {
      paths: this.paths,
      size: this.size.subarray(0, n),
      mtimeMs: this.mtimeMs.subarray(0, n),
      ino: this.ino.subarray(0, n),
      chunks: this.chunks.subarray(0, n),
      embedded: this.embedded.subarray(0, n),
      hashes: this.hashes.subarray(0, n * HASH_BYTES)
    }
  }

  /** A table from columns read from disk (lengths checked by the caller). */
  static fromColumns(columns: ReturnType<FileTable['columns']>): FileTable {
    const table = new FileTable()
    const n = columns.paths.length
    table.grow(n)
    table.paths = [...columns.paths]
    table.paths.forEach((path, row) => table.rows.set(path, row))
    table.size.set(columns.size)
    table.mtimeMs.set(columns.mtimeMs)
    table.ino.set(columns.ino)
    table.chunks.set(columns.chunks)
    table.embedded.set(columns.embedded)
    table.hashes.set(columns.hashes)
    for (let row = 0; row < n; row++) table.addToTotals(row)
    return table
  }

  private addToTotals(row: number): void {
    this.totals.chunks += this.chunks[row]
    if (this.embedded[row]) this.totals.embedded += this.chunks[row]
  }

  private removeFromTotals(row: number): void {
    this.totals.chunks -= this.chunks[row]
    if (this.embedded[row]) this.totals.embedded -= this.chunks[row]
  }

  private grow(rows: number): void {
    if (rows <= this.size.length) return
    const capacity = Math.max(rows, this.size.length * 2)
    const bigger = <T extends Float64Array | Uint32Array | Uint8Array>(
      old: T,
      make: (n: number) => T,
      width = 1
    ): T => {
      const next = make(capacity * width)
      next.set(old)
      return next
    }
    this.size = bigger(this.size, (n) => new Float64Array(n))
    this.mtimeMs = bigger(this.mtimeMs, (n) => new Float64Array(n))
    this.ino = bigger(this.ino, (n) => new Float64Array(n))
    this.chunks = bigger(this.chunks, (n) => new Uint32Array(n))
    this.embedded = bigger(this.embedded, (n) => new Uint8Array(n))
    this.hashes = bigger(this.hashes, (n) => new Uint8Array(n), HASH_BYTES)
  }
}
