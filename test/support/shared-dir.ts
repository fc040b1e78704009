import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * `../shared` exists only in the development checkout and in CI. Suites that read it use
 * `describe.skipIf(!sharedPresent)` with a name that says "not present, skipped". MODUS_SHARED_DIR
 * points elsewhere (a worktree whose parent holds no `shared`).
 */
export const sharedDir = process.env.MODUS_SHARED_DIR
  ? resolve(process.env.MODUS_SHARED_DIR)
  : resolve(__dirname, '../../../shared')
export const sharedPresent = existsSync(resolve(sharedDir, 'README.md'))
export const sharedSuiteName = (name: string): string =>
  sharedPresent ? name : `${name} (../shared not present, skipped)`

export const readSharedJson = <T = unknown>(relativePath: string): T =>
  JSON.parse(readFileSync(resolve(sharedDir, relativePath), 'utf8')) as T
