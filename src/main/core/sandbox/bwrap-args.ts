/**
 * The bubblewrap command line of a sandboxed command without network, built by Modus (Linux):
 * the whole disk read-only, the writable roots writable, the hidden paths empty, the protected
 * paths read-only, no network namespace to leave, no capabilities, no new user namespaces, and
 * the seccomp filter of seccomp-filter.ts on fd 3. What the runtime builds per command (a ripgrep
 * scan, `which`, mount bookkeeping, the proxy bridges) has nothing to do when the network is off.
 */
export interface BwrapLayout {
  /** Real paths the command may write. */
  writable: readonly string[]
  /** Existing hidden paths (credential stores, Modus's data dir), real: emptied. */
  hidden: readonly { path: string; dir: boolean }[]
  /** Existing protected paths, bound read-only over themselves. */
  readOnly: readonly string[]
  /** Absent protected paths: /dev/null is bound there (bubblewrap leaves an empty file to remove). */
  absent: readonly string[]
}

export const SECCOMP_FD = 3

const depth = (path: string): number => path.split('/').filter(Boolean).length

type Mount = { path: string; rank: number; args: string[] }

/**
 * The mounts, a parent before anything under it (a tmpfs over a folder would hide a writable root
 * inside it; a bind of a writable root would uncover a hidden path inside it); on the same path
 * a hidden or protected mount goes last, so it wins.
 */
export function mountArgs(layout: BwrapLayout): string[] {
  const mounts: Mount[] = [
    ...layout.writable.map((path) => ({ path, rank: 0, args: ['--bind', path, path] })),
    ...layout.hidden.map(({ path, dir }) => ({
      path,
      rank: 1,
      args: dir ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path]
    })),
    ...layout.readOnly.map((path) => ({ path, rank: 2, args: ['--ro-bind', path, path] })),
    ...layout.absent.map((path) => ({ path, rank: 2, args: ['--ro-bind', '/dev/null', path] }))
  ]
  const ranked = mounts.map((mount) => ({ ...mount, depth: depth(mount.path) }))
  ranked.sort((a, b) => a.depth - b.depth || a.rank - b.rank)
  return ranked.flatMap((mount) => mount.args)
}

/** bwrap's arguments up to the command (`--` excluded). */
export function bwrapArgs(layout: BwrapLayout): string[] {
  return [
    '--new-session',
    '--die-with-parent',
    '--unshare-net',
    '--ro-bind',
    '/',
    '/',
    ...mountArgs(layout),
    '--dev',
    '/dev',
    '--unshare-pid',
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    '--proc',
    '/proc',
    '--seccomp',
    String(SECCOMP_FD)
  ]
}

/** One word for a POSIX shell. */
export const shellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
