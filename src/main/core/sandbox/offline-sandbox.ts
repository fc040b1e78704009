import { lstatSync, realpathSync, statSync } from 'node:fs'
import { basename, isAbsolute, join } from 'node:path'
import { findOnPath } from '../terminal/shell-integration'
import { bwrapArgs, SECCOMP_FD, shellWord, type BwrapLayout } from './bwrap-args'

/**
 * Sandboxed commands without network on Linux, wrapped by Modus instead of the runtime: one
 * bubblewrap start, no proxy bridges. The command line of each (workspace, writable roots,
 * hidden paths, shell) is kept and used again while the protected and hidden paths on disk are
 * as they were; which of them exist is looked at (a few dozen lstat calls) before every command,
 * so a protected or hidden path that appears later is covered from the next command on.
 */
export interface OfflineWrapRequest {
  workspaceRoot: string
  /** Real paths the command may write. */
  writable: readonly string[]
  /** Paths to hide, absolute (credential stores, Modus's data dir); absent ones are skipped. */
  hidden: readonly string[]
  /** Folders read-only inside even within a writable root (an isolated task's repository); absent ones are skipped. */
  readOnly?: readonly string[]
  /** The task shell; the command text is written for it and runs in it inside the sandbox. */
  shell: string | undefined
  /** What the inner shell runs (definitions first). */
  command: string
  /** Files bound read-only into this sandbox alone, after the layout (its own definitions file under a hidden folder). */
  ownFiles?: readonly string[]
}

export interface OfflineWrap {
  text: string
  /** The absent protected paths bubblewrap binds over (and so creates empty): see mount-points.ts. */
  mountPoints: string[]
}

export interface OfflineSandboxDeps {
  bwrap: string
  /** The seccomp filter's file (seccomp-filter.ts), read by the task shell into bwrap's fd 3. */
  filterFile: string
  /** Always read-only inside, even within a writable root (the shell definitions' folder). */
  readOnly: readonly string[]
  /** Protected names at the workspace root: always bound, and bound where present. */
  protectedAlways: readonly string[]
  protectedWherePresent: readonly string[]
  path: () => string | undefined
  /** Whether a path is a running sandbox's own mount point (it counts as absent: see layoutOnDisk). */
  placeholder?: (path: string) => boolean
}

/** A warm sandbox's bubblewrap (warm-sandbox.ts): the same line, up to the shell it runs. */
export interface OfflineLaunch {
  bwrap: string
  /** bubblewrap's arguments up to `--` (excluded). */
  args: string[]
  /** The inner shell, resolved. */
  shell: string
  layout: BwrapLayout
  filterFile: string
}

export interface OfflineSandbox {
  /** The text the task shell runs, or null where this path does not apply (the runtime's path takes the command). */
  wrap(request: OfflineWrapRequest): OfflineWrap | null
  /** The line of a warm sandbox for these settings, or null where this path does not apply. */
  launch(request: Omit<OfflineWrapRequest, 'command'>): OfflineLaunch | null
}

/** ` --ro-bind file file` for each file: after the layout, so it shows through a hidden folder. */
export const ownBinds = (files: readonly string[]): string =>
  files.map((file) => ` --ro-bind ${shellWord(file)} ${shellWord(file)}`).join('')

/** Task shells whose syntax the wrap is written in (`3< file` gives bwrap the filter). */
export const POSIX_SHELLS = new Set(['bash', 'zsh', 'sh', 'dash'])
const MAX_KEPT = 32

export function createOfflineSandbox(deps: OfflineSandboxDeps): OfflineSandbox {
  const kept = new Map<string, { layout: string; prefix: string }>()
  const shells = new Map<string, string | null>()

  const innerShell = (shell: string): string | null => {
    if (isAbsolute(shell)) return shell
    if (!shells.has(shell)) shells.set(shell, findOnPath(shell, { PATH: deps.path() ?? '' }, 'linux'))
    return shells.get(shell) ?? null
  }

  return {
    launch(request) {
      const shellName = request.shell ?? 'bash'
      if (!POSIX_SHELLS.has(basename(shellName))) return null
      const shell = innerShell(shellName)
      const layout = shell ? layoutOnDisk(request, deps) : null
      if (!shell || !layout) return null
      return { bwrap: deps.bwrap, args: bwrapArgs(layout), shell, layout, filterFile: deps.filterFile }
    },
    wrap(request) {
      const shellName = request.shell ?? 'bash'
      if (!POSIX_SHELLS.has(basename(shellName))) return null
      const shell = innerShell(shellName)
      const layout = shell ? layoutOnDisk(request, deps) : null
      if (!shell || !layout) return null
      const key = JSON.stringify([request.workspaceRoot, request.writable, request.hidden, request.readOnly, shell])
      const signature = JSON.stringify(layout)
      let entry = kept.get(key)
      if (entry?.layout !== signature) {
        entry = { layout: signature, prefix: [deps.bwrap, ...bwrapArgs(layout)].map(shellWord).join(' ') }
        if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!)
        kept.set(key, entry)
      }
      return {
        text: `${entry.prefix}${ownBinds(request.ownFiles ?? [])} -- ${shellWord(shell)} -c ${shellWord(request.command)} ${SECCOMP_FD}< ${shellWord(deps.filterFile)}`,
        mountPoints: [...layout.absent]
      }
    }
  }
}

/**
 * Which protected and hidden paths exist now. Null for a protected path that is a symlink: a
 * bind lands on its target and leaves the link itself replaceable, so the runtime, which
 * resolves such paths, wraps that command.
 */
export function layoutOnDisk(
  request: Pick<OfflineWrapRequest, 'workspaceRoot' | 'writable' | 'hidden' | 'readOnly'>,
  deps: Pick<OfflineSandboxDeps, 'protectedAlways' | 'protectedWherePresent' | 'readOnly' | 'placeholder'>
): BwrapLayout | null {
  const readOnly: string[] = []
  const absent: string[] = []
  for (const name of [...deps.protectedAlways, ...deps.protectedWherePresent]) {
    const path = join(request.workspaceRoot, name)
    // A warm sandbox's empty placeholder is laid out as the absent path it stands for, so the layout
    // (and the warm sandbox made for it) stays the same while it lives.
    const stat = deps.placeholder?.(path) ? undefined : lstatSync(path, { throwIfNoEntry: false })
    if (stat?.isSymbolicLink()) return null
    if (stat) readOnly.push(path)
    // Where the workspace is not writable, nothing can create it (and bwrap could not place a mount point).
    else if (deps.protectedAlways.includes(name) && within(request.writable, request.workspaceRoot)) absent.push(path)
  }
  const hidden: { path: string; dir: boolean }[] = []
  for (const path of request.hidden) {
    // Most stores are absent: one stat says so without realpath's thrown error (the costly part).
    const real = existsFollowed(path) ? realOrNull(path) : null
    const stat = real ? statSync(real, { throwIfNoEntry: false }) : undefined
    if (real && stat) hidden.push({ path: real, dir: stat.isDirectory() })
  }
  for (const path of request.readOnly ?? []) {
    const real = realOrNull(path)
    if (real) readOnly.push(real)
  }
  return { writable: request.writable, hidden, readOnly: [...readOnly, ...deps.readOnly], absent }
}

const within = (roots: readonly string[], path: string): boolean =>
  roots.some((root) => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`))

/** Whether something is there, symlinks followed; false where it cannot be looked at (realpath would fail too). */
function existsFollowed(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    return false
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}
