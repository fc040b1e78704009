import { realpathSync } from 'node:fs'
import { lstat, mkdir, open, readFile, realpath, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { detectLineEnding, withLineEnding } from '../../../shared/diff/text'
import { isProtectedPath, protectedEntriesOf } from '../../../shared/policy/paths'
import { createChangeStore, type WriteRecorder } from './change-store'
import { decodeText, detectEncoding, encodeText } from './encoding'
import { loadIgnoreRules, type IgnoreRules } from './ignore-rules'
import { readLineWindow } from './line-reader'
import { listDirectory } from './list'
import { SKIP_WALK_LIMIT, skippedCollector } from './skipped-folders'
import { holdsIgnoredEntries } from './ignored-within'
import { isWithin, realpathOfNearest, resolveWorkspacePath } from './paths'
import { findRipgrep, searchFiles } from './search'
import {
  WorkspaceError,
  type LineRange,
  type ProtectedPathCheck,
  type ResolvedPath,
  type TextFile,
  type TextFormat,
  type Workspace,
  type WriteOptions
} from './types'
import { writeFileAtomic } from '../fs/atomic-write'
import { describeWriteFailure, isOutOfSpace } from '../fs/disk-errors'

export interface CreateWorkspaceOptions {
  /** The opened folder (resolved with realpath). */
  root: string
  /** Protected-path predicate; default: the policy's `isProtectedPath` (src/shared/policy/paths.ts). */
  isProtected?: ProtectedPathCheck
  /** Path of `rg`; default: looked up on PATH. `null` forces the built-in search. */
  ripgrepPath?: string | null
  /** Whole-file reads above this size are refused (read_file pages large files instead). */
  maxTextBytes?: number
  now?: () => number
  /** Checkpoints: every applied change's write goes through it. */
  recordWrite?: WriteRecorder
}

const DEFAULT_MAX_TEXT_BYTES = 20 * 1024 * 1024
/** Files above this are paged from disk instead of loaded whole. */
const STREAM_ABOVE_BYTES = 4 * 1024 * 1024

export async function createWorkspace(options: CreateWorkspaceOptions): Promise<Workspace> {
  let rootReal: string
  try {
    rootReal = realpathSync.native(options.root)
  } catch {
    throw new WorkspaceError('not_found', `Workspace folder does not exist: ${options.root}`, options.root)
  }
  if (!(await stat(rootReal)).isDirectory()) {
    throw new WorkspaceError('not_a_directory', `Workspace root is not a folder: ${options.root}`, options.root)
  }
  const isProtected: ProtectedPathCheck = options.isProtected ?? isProtectedPath
  const protectedIn = options.isProtected
    ? (dir: string) => (name: string) => isProtected(dir === '' ? name : `${dir}/${name}`)
    : protectedEntriesOf
  const maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES
  let rules: IgnoreRules = await loadIgnoreRules(rootReal)
  const ripgrep = options.ripgrepPath !== undefined ? options.ripgrepPath : findRipgrep()
  const flags = { ignored: (rel: string, dir: boolean) => rules.ignores(rel, dir), protected: isProtected }
  const resolvePath = (path: string): ResolvedPath => resolveWorkspacePath(rootReal, path, flags)

  const ignoredError = (p: ResolvedPath): WorkspaceError =>
    new WorkspaceError(
      'ignored',
      `Access to ${p.display} is blocked by ${rules.sources.join(' / ') || 'the ignore rules'}. Continue without this file, or ask the user to change the ignore file.`,
      p.display
    )

  function requireReadableFile(p: ResolvedPath): void {
    if (p.ignored) throw ignoredError(p)
    if (p.kind === 'missing') throw new WorkspaceError('not_found', `File not found: ${p.display}`, p.display)
    if (p.kind === 'directory')
      throw new WorkspaceError(
        'is_directory',
        `'${p.display}' is a directory, not a file. Use list_files to see its contents.`,
        p.display
      )
    // FIFOs, sockets and devices would block or never end.
    if (p.kind === 'other')
      throw new WorkspaceError('io', `'${p.display}' is not a regular file (device, socket or pipe).`, p.display)
  }

  const binaryError = (p: ResolvedPath): WorkspaceError =>
    new WorkspaceError('binary', `'${p.display}' is a binary file; its content cannot be shown as text.`, p.display)

  async function readText(path: string, opts: { maxBytes?: number } = {}): Promise<TextFile> {
    const p = resolvePath(path)
    requireReadableFile(p)
    const st = await stat(p.real)
    const limit = opts.maxBytes ?? maxTextBytes
    if (st.size > limit) {
      throw new WorkspaceError(
        'too_large',
        `'${p.display}' is ${st.size} bytes, above the ${limit}-byte limit for whole-file reads.`,
        p.display
      )
    }
    const bytes = await readFile(p.real)
    const encoding = detectEncoding(bytes)
    if (encoding === null) throw binaryError(p)
    const text = decodeText(bytes, encoding)
    return {
      path: p,
      text,
      encoding,
      eol: detectLineEnding(text),
      mode: st.mode & 0o7777,
      size: st.size,
      mtimeMs: st.mtimeMs
    }
  }

  async function readLines(path: string, offset: number, limit: number): Promise<LineRange> {
    const p = resolvePath(path)
    requireReadableFile(p)
    const st = await stat(p.real)
    if (st.size <= STREAM_ABOVE_BYTES) {
      const file = await readText(path)
      const all = file.text.split(/\r?\n/)
      if (all.length && all[all.length - 1] === '') all.pop()
      return { offset, lines: all.slice(offset - 1, offset - 1 + limit), totalLines: all.length, format: file }
    }
    const head = await readHead(p.real, 8192)
    const encoding = detectEncoding(head)
    if (encoding === null) throw binaryError(p)
    if (encoding === 'utf16le' || encoding === 'utf16be') {
      const file = await readText(path, { maxBytes: Number.MAX_SAFE_INTEGER })
      const all = file.text.split(/\r?\n/)
      if (all.length && all[all.length - 1] === '') all.pop()
      return { offset, lines: all.slice(offset - 1, offset - 1 + limit), totalLines: all.length, format: file }
    }
    const decode = (bytes: Buffer): string =>
      decodeText(bytes, encoding === 'utf8bom' && offset === 1 ? 'utf8bom' : encoding === 'latin1' ? 'latin1' : 'utf8')
    const { lines, totalLines } = await readLineWindow(p.real, offset, limit, decode)
    const eol = head.includes(13) ? 'crlf' : 'lf'
    return { offset, lines, totalLines, format: { encoding, eol, mode: st.mode & 0o7777 } }
  }

  async function readBytes(path: string, opts: { maxBytes?: number } = {}) {
    const p = resolvePath(path)
    requireReadableFile(p)
    const st = await stat(p.real)
    if (opts.maxBytes !== undefined && st.size > opts.maxBytes) {
      throw new WorkspaceError(
        'too_large',
        `'${p.display}' is ${st.size} bytes, above the ${opts.maxBytes}-byte limit.`,
        p.display
      )
    }
    return { path: p, bytes: new Uint8Array(await readFile(p.real)) }
  }

  async function readTextIfExists(path: string): Promise<TextFile | null> {
    const p = resolvePath(path)
    if (p.kind === 'missing' && !p.ignored) return null
    return readText(path)
  }

  const escaped = (p: ResolvedPath): WorkspaceError =>
    new WorkspaceError(
      'outside_workspace',
      `Not written: ${p.input} now leads outside the workspace (a folder or the file was replaced by a link since the change was proposed). Nothing was changed.`,
      p.input
    )

  /**
   * Where a write really lands, decided now rather than at proposal time: the real parent folder
   * (checked again), and the file itself unless it is a link, which is followed only inside.
   */
  async function writeDestination(p: ResolvedPath, stayInside: boolean): Promise<string> {
    const parent = dirname(p.absolute)
    if (stayInside && !isWithin(rootReal, realpathOfNearest(parent))) throw escaped(p)
    await mkdir(parent, { recursive: true })
    const parentReal = await realpath(parent)
    if (stayInside && !isWithin(rootReal, parentReal)) throw escaped(p)
    const destination = join(parentReal, basename(p.absolute))
    if (!(await lstat(destination).catch(() => null))?.isSymbolicLink()) return destination
    const target = realpathOfNearest(destination)
    if (stayInside && (!isWithin(rootReal, target) || !isWithin(rootReal, realpathOfNearest(dirname(target)))))
      throw escaped(p)
    return target
  }

  async function writeText(
    path: string,
    text: string,
    format: Partial<TextFormat> = {},
    options: WriteOptions = {}
  ): Promise<string> {
    const p = resolvePath(path)
    if (p.ignored) throw ignoredError(p)
    if (p.kind === 'directory') throw new WorkspaceError('is_directory', `'${p.display}' is a directory.`, p.display)
    const destination = await writeDestination(p, options.stayInside === true)
    let existing: TextFormat | null = null
    const st = p.kind === 'file' ? await stat(destination).catch(() => null) : null
    if (st) {
      const head = await readHead(destination, 8192)
      existing = { encoding: detectEncoding(head) ?? 'utf8', eol: 'lf', mode: st.mode & 0o7777 }
    }
    const encoding = format.encoding ?? existing?.encoding ?? 'utf8'
    const mode = format.mode ?? existing?.mode ?? undefined
    const body = format.eol ? withLineEnding(text, format.eol) : text
    // The final rename replaces the name in the real parent; it never follows a link.
    await writeFileAtomic(destination, encodeText(body, encoding), { mode }).catch((error: unknown) => {
      // The atomic write left the file as it was; say which disk to clean, not a bare ENOSPC.
      if (isOutOfSpace(error))
        throw new WorkspaceError('io', describeWriteFailure(error, destination, 'workspace'), p.display)
      throw error
    })
    return destination
  }

  async function deleteFile(path: string, options: WriteOptions = {}): Promise<void> {
    const p = resolvePath(path)
    if (p.ignored) throw ignoredError(p)
    if (p.kind === 'missing') throw new WorkspaceError('not_found', `File not found: ${p.display}`, p.display)
    if (p.kind === 'directory')
      throw new WorkspaceError('is_directory', `'${p.display}' is a directory; only files are deleted.`, p.display)
    // `rm` removes a link itself, but a parent swapped for a link would lead it elsewhere.
    if (options.stayInside && !isWithin(rootReal, realpathOfNearest(dirname(p.absolute)))) throw escaped(p)
    await rm(p.absolute)
  }

  const workspace: Workspace = {
    root: rootReal,
    changes: undefined as never,
    resolve: async (path) => resolvePath(path),
    readText,
    readLines,
    readBytes,
    readTextIfExists,
    writeText,
    deleteFile,
    async list(path, listOptions) {
      const p = resolvePath(path)
      if (p.ignored) throw ignoredError(p)
      if (p.kind === 'missing') throw new WorkspaceError('not_found', `Directory not found: ${p.display}`, p.display)
      if (p.kind !== 'directory')
        throw new WorkspaceError('not_a_directory', `'${p.display}' is a file, not a directory.`, p.display)
      return listDirectory(p.real, listOptions, { rootReal, ignored: flags.ignored, protectedIn })
    },
    async search(path, searchOptions) {
      const p = resolvePath(path)
      if (p.ignored) throw ignoredError(p)
      if (p.kind === 'missing') throw new WorkspaceError('not_found', `Path not found: ${p.display}`, p.display)
      const searching = searchFiles(p.real, searchOptions, {
        rootReal,
        ignoreFiles: rules.sources,
        ignored: flags.ignored,
        ripgrep
      })
      if (p.kind !== 'directory') return searching
      // Beside the search, a walk of the folders names what the search did not enter (one line for the model).
      const skipped = skippedCollector()
      const walking = listDirectory(
        p.real,
        { recursive: true, limit: SKIP_WALK_LIMIT },
        { rootReal, ignored: flags.ignored, protectedIn: () => () => false, onSkipped: skipped.add }
      )
      const [result] = await Promise.all([searching, walking])
      return { ...result, skipped: skipped.list() }
    },
    isIgnored: (rel, isDir) => rules.ignores(rel, isDir),
    async ignoredWithin(path) {
      if (rules.sources.length === 0) return false
      const p = resolvePath(path)
      if (p.ignored) return true
      if (p.kind !== 'directory' || p.outsideWorkspace) return false
      return holdsIgnoredEntries(p.real, { rootReal, ignored: flags.ignored })
    },
    async reloadIgnoreRules() {
      rules = await loadIgnoreRules(rootReal)
    }
  }
  ;(workspace as { changes: Workspace['changes'] }).changes = createChangeStore({
    workspace,
    now: options.now,
    recordWrite: options.recordWrite
  })
  return workspace
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}
