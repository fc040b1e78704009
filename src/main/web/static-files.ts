import { promises as fs } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm'
}

export interface StaticFile {
  body: Buffer
  contentType: string
}

/** Reads a file of the built renderer; `null` for anything outside `root` or missing. */
async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const full = resolveInside(root, urlPath)
  if (!full) return null
  // A link inside the folder must not lead out of it.
  const [realRoot, real] = await Promise.all([fs.realpath(root).catch(() => null), fs.realpath(full).catch(() => null)])
  if (!realRoot || !real || !within(realRoot, real)) return null
  const body = await fs.readFile(real).catch(() => null)
  if (!body) return null
  return { body, contentType: CONTENT_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream' }
}

interface Kept {
  file: StaticFile
  stamp: string
}

/**
 * `readStaticFile` with what was read kept in memory: a page's first load is a handful of requests,
 * and each read is several trips through the event loop (two realpaths, open, stat, read, close),
 * which a busy machine makes slow. A kept file is served after one `stat` shows it unchanged (a
 * rebuild while serving is read afresh, through every check again).
 */
export function createStaticFiles(root: string): { read(urlPath: string): Promise<StaticFile | null> } {
  const kept = new Map<string, Kept>()
  const stampOf = (path: string): Promise<string | null> =>
    fs.stat(path).then(
      (stats) => `${stats.ino}:${stats.size}:${stats.mtimeMs}`,
      () => null
    )
  return {
    async read(urlPath) {
      const full = resolveInside(root, urlPath)
      if (!full) return null
      const before = kept.get(full)
      const stamp = await stampOf(full)
      if (before && stamp === before.stamp) return before.file
      kept.delete(full)
      const file = await readStaticFile(root, urlPath)
      if (file && stamp) kept.set(full, { file, stamp })
      return file
    }
  }
}

/** The file a URL path names under `root`, or `null` when it cannot be one. */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '')
  const full = join(root, relative)
  return within(root, full) ? full : null
}

const within = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
