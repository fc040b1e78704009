import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { z } from 'zod'

/**
 * Which process runs a task. Several processes share one data dir (CLI runs, the app, the web
 * host): a task is "interrupted" only when the process that ran it is gone, never because another
 * process happened to start. The pid alone is not enough (pids are reused, and a reboot starts
 * them over), so on Linux the owner also carries the boot id and the process's start time.
 */
export const TaskOwner = z.object({
  pid: z.number().int().positive(),
  /** `<boot id>:<start time in clock ticks>` on Linux; absent where the OS offers no cheap way to tell. */
  started: z.string().optional(),
  /** One per task store: a store opened again in the same process (a restart in tests) owns nothing of the old one. */
  instance: z.string()
})
export type TaskOwner = z.infer<typeof TaskOwner>

export function currentOwner(): TaskOwner {
  const started = startIdentity(process.pid)
  return { pid: process.pid, ...(started && { started }), instance: randomUUID() }
}

/** True when the process that owned a task (or the store instance, in this process) is no longer there. */
export function ownerIsGone(owner: TaskOwner | undefined, self: TaskOwner): boolean {
  if (!owner) return true
  if (owner.pid === self.pid) return owner.instance !== self.instance
  if (!signalable(owner.pid)) return true
  if (!owner.started) return false
  // Alive under that pid, but is it the same process? A different start identity means the pid was reused.
  return startIdentity(owner.pid) !== owner.started
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

let bootId: string | null | undefined

/** Linux only: the boot id plus field 22 of /proc/<pid>/stat; null for a zombie, elsewhere, or when unreadable. */
function startIdentity(pid: number): string | null {
  if (process.platform !== 'linux') return null
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] === 'Z' || fields[0] === 'X') return null
    return `${bootId}:${fields[19]}`
  } catch {
    return null
  }
}
