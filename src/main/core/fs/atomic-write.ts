import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * Writes a file so that a crash leaves either the old or the new content, never half of it:
 * temp file in the same directory, fsync, rename over the target, fsync the directory. Parents
 * are created. With a `mode`, the file gets exactly that mode (not the umask's version of it).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {}
): Promise<void> {
  const dir = dirname(path)
  await fs.mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(path)}.modus-${randomBytes(6).toString('hex')}.tmp`)
  const handle = await fs.open(temp, 'wx', options.mode ?? 0o644)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => undefined)
    await fs.rm(temp, { force: true })
    throw error
  }
  await handle.close()
  try {
    if (options.mode !== undefined) await fs.chmod(temp, options.mode)
    await fs.rename(temp, path)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
  await syncDirectory(dir)
}

async function syncDirectory(dir: string): Promise<void> {
  // Directory fsync makes the rename durable on Linux; Windows cannot open directories, so skip there.
  if (process.platform === 'win32') return
  const handle = await fs.open(dir, 'r').catch(() => null)
  if (!handle) return
  try {
    await handle.sync()
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic.
  } finally {
    await handle.close()
  }
}
