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
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '')
  const full = join(root, relative)
  if (!within(root, full)) return null
  // A link inside the folder must not lead out of it.
  const [realRoot, real] = await Promise.all([fs.realpath(root).catch(() => null), fs.realpath(full).catch(() => null)])
  if (!realRoot || !real || !within(realRoot, real)) return null
  const body = await fs.readFile(real).catch(() => null)
  if (!body) return null
  return { body, contentType: CONTENT_TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream' }
}

const within = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
