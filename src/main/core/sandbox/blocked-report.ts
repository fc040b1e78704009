/**
 * What the sandbox refused during one command, as one line for the model. Writes: bubblewrap
 * mounts everything outside the writable roots read-only, so a refused write shows as EROFS
 * ("Read-only file system"; Node: "EROFS: read-only file system") in the command's own output; a
 * protected path inside the workspace may also show as "Permission denied" or "File exists".
 * Connections: the ones the network policy or the user refused.
 */
export function blockedReport(
  output: string,
  refusedConnections: readonly string[],
  protectedNames: readonly string[],
  hiddenPaths: readonly string[] = []
): string | null {
  const writes = blockedWrites(output, protectedNames)
  const parts: string[] = []
  const reads = blockedReads(output, hiddenPaths)
  if (reads.length > 0)
    parts.push(
      `${reads.length === 1 ? 'a read of' : 'reads of'} ${list(reads)} (a credential store, unreadable in the sandbox unless the mode gives it back in its sandbox settings)`
    )
  const isProtected = (path: string): boolean => protectedNames.some((name) => protectedPath(name).test(path))
  const outside = writes.named.filter((path) => !isProtected(path))
  const guarded = writes.named.filter(isProtected)
  const writeGroups: string[] = []
  if (outside.length > 0) writeGroups.push(`${writesTo(outside)} (outside the writable roots)`)
  if (guarded.length > 0) writeGroups.push(`${writesTo(guarded)} (a protected path, read-only in the sandbox)`)
  // Unnamed refusals only matter when nothing named tells the model already.
  if (writeGroups.length === 0 && writes.unnamed)
    writeGroups.push('a write outside the writable roots (the output does not name the path)')
  if (writeGroups.length > 0) parts.push(writeGroups.join(' and '))
  if (refusedConnections.length > 0)
    parts.push(`${refusedConnections.length === 1 ? 'a connection to' : 'connections to'} ${list(refusedConnections)}`)
  if (parts.length === 0) return null
  const gitData = writes.named.some(isGitData)
  // Still one line: the result shows the sandbox's report as one line under the output.
  return `Sandbox: blocked ${parts.join('; and ')}.${gitData ? ` ${GIT_DATA_NOTE}` : ''}`
}

/**
 * Why git writes fail in the sandbox and what to do. A worktree's git data is in the main
 * repository (`.git/worktrees/<name>`, `.git/objects`, `.git/refs`): writable, it would let a
 * command replace objects of the user's history or point the worktree at a config (hooks,
 * filters) of its own making, so it stays read-only like the workspace's own `.git`.
 */
const GIT_DATA_NOTE =
  "git's own data (.git) is read-only in the sandbox, so no command can rewrite the repository's history, refs, config or hooks: git commit, branch and other git writes fail here. Leave the changes uncommitted (the user reviews the files; an isolated task's work is read from its worktree), or run the git command again with outside_sandbox: true, which asks the user."

/**
 * A path in a worktree's git data (`.git/worktrees/<name>/…`, where an isolated task's git writes
 * first land): there the advice is needed, since the worktree itself is writable.
 */
const isGitData = (path: string): boolean => /(?:^|\/)\.git\/worktrees\//.test(path)

/** What a scanner keeps: enough refusals to name every path the report lists, bounded in memory. */
const MAX_KEPT_LINES = 200
const MAX_LINE_CHARS = 2000
const REFUSAL_WORDS =
  /read-only file system|Permission denied|Operation not permitted|File exists|No such file or directory|ENOENT|EACCES/i

/**
 * Watches a command's whole output as it streams and keeps only the lines that report a refusal,
 * so a blocked write in the middle of long output (which the model's preview omits) still makes
 * the report. Per chunk it costs one search for the refusal words (and `alsoKeep`'s, e.g. failed
 * connections of a command without network).
 */
export interface BlockedWriteScanner {
  push(text: string): void
  /** The refusal lines seen, newline-joined (the unterminated last line included). */
  text(): string
}

export function createBlockedWriteScanner(alsoKeep?: RegExp): BlockedWriteScanner {
  const words = alsoKeep ? new RegExp(`${REFUSAL_WORDS.source}|${alsoKeep.source}`, 'i') : REFUSAL_WORDS
  const kept: string[] = []
  // The unterminated last line so far, so a message split across chunks is still one line.
  let partial = ''
  const keepMatching = (lines: readonly string[]): void => {
    for (const line of lines) {
      if (kept.length >= MAX_KEPT_LINES) return
      const at = line.search(words)
      if (at >= 0) kept.push(around(line, at))
    }
  }
  return {
    push(text) {
      if (!text) return
      const joined = partial + text
      const lastBreak = Math.max(joined.lastIndexOf('\n'), joined.lastIndexOf('\r'))
      if (lastBreak < 0) {
        partial = clip(joined)
        return
      }
      const complete = joined.slice(0, lastBreak)
      partial = clip(joined.slice(lastBreak + 1))
      if (words.test(complete)) keepMatching(complete.split(/\r?\n|\r/))
    },
    text: () => [...kept, ...(words.test(partial) ? [partial] : [])].join('\n')
  }
}

/** The unterminated end of a very long line (a progress bar, minified output): an error printed after it lands there. */
const clip = (line: string): string => (line.length > MAX_LINE_CHARS ? line.slice(-MAX_LINE_CHARS) : line)
/** A long refusal line keeps the part around its refusal words, where the path is named. */
const around = (line: string, at: number): string =>
  line.length > MAX_LINE_CHARS ? line.slice(Math.max(0, at - MAX_LINE_CHARS / 2), at + MAX_LINE_CHARS / 2) : line

const writesTo = (paths: readonly string[]): string =>
  `${paths.length === 1 ? 'a write to' : 'writes to'} ${list(paths)}`

const list = (items: readonly string[]): string => {
  const shown = items.slice(0, 5).join(', ')
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown
}

const protectedPath = (name: string): RegExp =>
  new RegExp(`(?:^|/)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`)

const READ_ONLY = /read-only file system/i
const REFUSED = /Permission denied|Operation not permitted|File exists/
const QUOTED = /['‘"`]([^'’"`]+)['’"`]/g
// "bash: line 1: /etc/x: Read-only …", "sed: couldn't open temporary file .git/sedXYZ: Read-only …"
const COLON_PATH =
  /(?:^|\s)((?:~|\.{0,2}\/|[\w.-]+\/)[^\s:]*|\.[\w.-]+)\s*:\s*(?:Read-only file system|Permission denied|File exists)/i

/** A quoted path: the last one, as in "cannot copy 'template' to 'destination'". */
const lastQuoted = (line: string): string | undefined => [...line.matchAll(QUOTED)].at(-1)?.[1]

function blockedWrites(output: string, protectedNames: readonly string[]): { named: string[]; unnamed: boolean } {
  const found = new Set<string>()
  let unnamed = false
  for (const line of output.split(/\r?\n/)) {
    const readOnly = READ_ONLY.test(line)
    if (!readOnly && !REFUSED.test(line)) continue
    const path = COLON_PATH.exec(line)?.[1] ?? lastQuoted(line)
    if (!path) {
      if (readOnly) unnamed = true
      continue
    }
    if (readOnly || protectedNames.some((name) => protectedPath(name).test(path))) found.add(path)
  }
  return { named: [...found], unnamed }
}

/**
 * Hidden paths a failed read names ("cat: /home/u/.ssh/id_rsa: No such file or directory": the
 * store is an empty folder or /dev/null inside the sandbox), each once, by the hidden path.
 */
function blockedReads(output: string, hiddenPaths: readonly string[]): string[] {
  if (hiddenPaths.length === 0) return []
  const found = new Set<string>()
  for (const line of output.split(/\r?\n/)) {
    if (!/No such file or directory|Permission denied|Operation not permitted|ENOENT|EACCES/i.test(line)) continue
    for (const hidden of hiddenPaths) if (namesPathWithin(line, hidden)) found.add(hidden)
  }
  return [...found]
}

const namesPathWithin = (line: string, path: string): boolean => {
  const at = line.indexOf(path)
  if (at < 0) return false
  const next = line[at + path.length]
  return next === undefined || next === '/' || /[\s'"’:`]/.test(next)
}
