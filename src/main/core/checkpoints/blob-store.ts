import { createHash } from 'node:crypto'
import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants } from 'node:zlib'
import { writeFileAtomic } from '../fs/atomic-write'

const compress = promisify(brotliCompress)
const decompress = promisify(brotliDecompress)

/**
 * Content-addressed store of file versions: one compressed file per distinct content (sha256), so a
 * file saved a hundred times unchanged costs one entry. Writes are atomic (`writeFileAtomic`), so a
 * crash mid-write leaves either the whole blob or nothing under its name.
 */
export interface BlobStore {
  put(bytes: Uint8Array): Promise<string>
  get(hash: string): Promise<Buffer>
  has(hash: string): Promise<boolean>
  /** Deletes every blob not in `keep`; returns the bytes freed. */
  retainOnly(keep: ReadonlySet<string>): Promise<number>
  /** Bytes on disk. */
  size(): Promise<number>
}

export const hashBytes = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

export function createBlobStore(dir: string): BlobStore {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash.slice(2))
  const known = new Set<string>()

  async function* blobs(): AsyncGenerator<{ hash: string; path: string }> {
    const shards = await readdir(dir).catch(() => [] as string[])
    for (const shard of shards) {
      if (shard.length !== 2) continue
      for (const name of await readdir(join(dir, shard)).catch(() => [] as string[])) {
        yield { hash: shard + name, path: join(dir, shard, name) }
      }
    }
  }

  return {
    async put(bytes) {
      const hash = hashBytes(bytes)
      if (known.has(hash)) return hash
      const path = pathOf(hash)
      if (!(await stat(path).catch(() => null))) {
        const packed = await compress(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length }
        })
        await writeFileAtomic(path, packed)
      }
      known.add(hash)
      return hash
    },

    async get(hash) {
      if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a content hash: ${hash}`)
      const bytes = await decompress(await readFile(pathOf(hash)))
      if (hashBytes(bytes) !== hash) throw new Error(`checkpoint content ${hash.slice(0, 12)} is damaged`)
      return bytes
    },

    has: async (hash) => known.has(hash) || Boolean(await stat(pathOf(hash)).catch(() => null)),

    async retainOnly(keep) {
      let freed = 0
      for await (const blob of blobs()) {
        const isTemp = blob.hash.endsWith('.tmp')
        if (!isTemp && keep.has(blob.hash)) continue
        freed += (await stat(blob.path).catch(() => null))?.size ?? 0
        await rm(blob.path, { force: true })
        known.delete(blob.hash)
      }
      return freed
    },

    async size() {
      let total = 0
      for await (const blob of blobs()) total += (await stat(blob.path).catch(() => null))?.size ?? 0
      return total
    }
  }
}
