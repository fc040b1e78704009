import { randomBytes } from 'node:crypto'
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Writes through a temporary file in the same directory, fsyncs it and renames it over the target,
 * so a crash leaves either the old or the new file, never half of one. Parents are created.
 */
export async function writeFileAtomic(target: string, data: Uint8Array, mode: number | null): Promise<void> {
  const dir = dirname(target)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(target)}.modus-${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', mode ?? 0o644)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (err) {
    await handle.close().catch(() => {})
    await rm(temp, { force: true })
    throw err
  }
  await handle.close()
  try {
    if (mode !== null) await chmod(temp, mode) // open() is subject to the umask
    await rename(temp, target)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
  await syncDirectory(dir)
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Directory fsync is not supported everywhere (Windows); the rename is still atomic.
  }
}
