import { execFile } from 'node:child_process'
import { readdir, readFile, readlink } from 'node:fs/promises'

/**
 * The processes a shell started, how to end all of them, and whether one waits on the terminal.
 * Linux reads /proc; macOS asks `ps`; Windows ends a tree with `taskkill /T`.
 */
export interface ProcessEntry {
  pid: number
  ppid: number
  pgid: number
  /** Single-letter state (R, S, D, Z, T…) where known. */
  state: string
}

const run = (file: string, args: string[]): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 5000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(Object.assign(new Error(error.message), { cause: error })) : resolve(stdout)
    )
  )

/** Fields after the `(comm)` of /proc/<pid>/stat: state, ppid, pgrp, session, tty_nr, tpgid. */
function parseStat(text: string): { state: string; ppid: number; pgid: number; tpgid: number } | null {
  const close = text.lastIndexOf(')')
  if (close < 0) return null
  const fields = text.slice(close + 2).split(' ')
  return { state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]), tpgid: Number(fields[5]) }
}

export async function listProcesses(platform: NodeJS.Platform = process.platform): Promise<ProcessEntry[]> {
  if (platform === 'linux') {
    const names = await readdir('/proc')
    const entries = await Promise.all(
      names
        .filter((name) => /^\d+$/.test(name))
        .map(async (name) => {
          const stat = parseStat(await readFile(`/proc/${name}/stat`, 'utf8').catch(() => ''))
          return stat ? { pid: Number(name), ppid: stat.ppid, pgid: stat.pgid, state: stat.state } : null
        })
    )
    return entries.filter((entry): entry is ProcessEntry => entry !== null)
  }
  if (platform === 'win32') return []
  const out = await run('ps', ['-A', '-o', 'pid=,ppid=,pgid=,state='])
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length >= 3 && /^\d+$/.test(parts[0]))
    .map(([pid, ppid, pgid, state]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      state: (state ?? '?')[0]
    }))
}

export function descendantsOf(all: ProcessEntry[], rootPid: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>()
  for (const entry of all) {
    const list = children.get(entry.ppid)
    if (list) list.push(entry)
    else children.set(entry.ppid, [entry])
  }
  const result: ProcessEntry[] = []
  const queue = [rootPid]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      result.push(child)
      queue.push(child.pid)
    }
  }
  return result
}

const signal = (target: number, name: NodeJS.Signals): void => {
  try {
    process.kill(target, name)
  } catch {
    // Already gone, or not ours to signal.
  }
}

async function isAlive(pid: number, platform: NodeJS.Platform): Promise<boolean> {
  if (platform === 'linux') {
    const stat = parseStat(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''))
    return stat !== null && stat.state !== 'Z' && stat.state !== 'X'
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export interface KillTreeOptions {
  /** Also end the root (the shell); otherwise only what it started. */
  includeRoot: boolean
  /** Time between SIGTERM and SIGKILL. */
  graceMs?: number
  platform?: NodeJS.Platform
}

/**
 * Ends every process below `rootPid`: freezes the tree first (SIGSTOP) so nothing forks away
 * while it is collected, then SIGTERM + SIGCONT for a clean exit, then SIGKILL what is left.
 * Process groups are signalled too, which catches children that were re-parented.
 */
export async function killProcessTree(rootPid: number, options: KillTreeOptions): Promise<void> {
  const platform = options.platform ?? process.platform
  if (platform === 'win32') {
    await run('taskkill', ['/pid', String(rootPid), '/T', '/F']).catch(() => undefined)
    return
  }
  // A shell that sees its job stop would print "Stopped" and run the rest of the list: freeze it first.
  if (options.includeRoot) signal(rootPid, 'SIGSTOP')
  const seen = new Map<number, ProcessEntry>()
  for (let pass = 0; pass < 3; pass++) {
    const found = descendantsOf(await listProcesses(platform).catch(() => []), rootPid).filter((p) => !seen.has(p.pid))
    if (found.length === 0) break
    for (const entry of found) {
      seen.set(entry.pid, entry)
      signal(entry.pid, 'SIGSTOP')
    }
  }
  const groups = new Set([...seen.values()].map((p) => p.pgid).filter((g) => g > 1 && g !== rootPid))
  for (const group of groups) signal(-group, 'SIGTERM')
  for (const pid of seen.keys()) signal(pid, 'SIGTERM')
  for (const group of groups) signal(-group, 'SIGCONT')
  for (const pid of seen.keys()) signal(pid, 'SIGCONT')

  const targets = [...seen.keys()]
  const deadline = Date.now() + (options.graceMs ?? 1500)
  while (targets.length > 0 && Date.now() < deadline) {
    const alive = await Promise.all(targets.map((pid) => isAlive(pid, platform)))
    if (!alive.some(Boolean)) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  for (const group of groups) signal(-group, 'SIGKILL')
  for (const pid of targets) signal(pid, 'SIGKILL')
  // The frozen shell never runs again: SIGKILL works on a stopped process.
  if (options.includeRoot) signal(rootPid, 'SIGKILL')
}

/** The foreground process group of the shell's terminal (Linux/macOS), or null. */
export async function foregroundGroup(
  shellPid: number,
  platform: NodeJS.Platform = process.platform
): Promise<number | null> {
  if (platform === 'linux') {
    const stat = parseStat(await readFile(`/proc/${shellPid}/stat`, 'utf8').catch(() => ''))
    return stat && stat.tpgid > 0 ? stat.tpgid : null
  }
  if (platform === 'win32') return null
  const out = await run('ps', ['-o', 'tpgid=', '-p', String(shellPid)]).catch(() => '')
  const value = Number(out.trim())
  return Number.isInteger(value) && value > 0 ? value : null
}

const TTY_WAITS = new Set(['n_tty_read', 'wait_woken', 'tty_read'])

/**
 * Linux only: the pid of a foreground process of this terminal that is blocked in a read on the
 * terminal (kernel wait channel of a tty read, and the syscall's fd is the pty or /dev/tty).
 * Returns undefined where the platform cannot tell (callers fall back to a quiet period).
 */
export async function terminalReader(
  shellPid: number,
  platform: NodeJS.Platform = process.platform
): Promise<number | null | undefined> {
  if (platform !== 'linux') return undefined
  const group = await foregroundGroup(shellPid, platform)
  if (group === null) return null
  const candidates =
    group === shellPid
      ? [shellPid]
      : descendantsOf(await listProcesses(platform), shellPid)
          .filter((p) => p.pgid === group && p.state === 'S')
          .map((p) => p.pid)
  for (const pid of candidates) {
    if (await readsTerminal(pid)) return pid
  }
  return null
}

async function readsTerminal(pid: number): Promise<boolean> {
  const wchan = (await readFile(`/proc/${pid}/wchan`, 'utf8').catch(() => '')).trim()
  if (!TTY_WAITS.has(wchan)) return false
  const syscall = await readFile(`/proc/${pid}/syscall`, 'utf8').catch(() => '')
  const parts = syscall.trim().split(' ')
  if (parts.length < 2 || parts[0] === 'running') return wchan === 'n_tty_read'
  const fd = Number.parseInt(parts[1], 16)
  const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')
  return target.startsWith('/dev/pts/') || target === '/dev/tty' || target.startsWith('/dev/tty')
}
