import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, lstatSync, openSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { warmClient } from './warm-scripts'

/**
 * One sandboxed bash kept warm (Linux): a long-lived bubblewrap, laid out as a per-command wrap of
 * the same settings would be, with the server of warm-scripts.ts inside. A command then costs no
 * bubblewrap start, no proxy bridges: the task shell hands it over through FIFOs and waits for its
 * exit status. One command at a time per task shell: the next may be handed over as soon as the
 * task shell is done with the last (the server takes them in order, and ends what the last one
 * left before it starts the next). It is only used while every path it was laid out over is
 * still the same file (a protected path or credential file replaced by a rename would leave a
 * detached mount behind), and ends after an idle time, so the empty placeholder files bubblewrap
 * leaves over absent protected paths do not outlive the task's work by long.
 */
export interface WarmLaunch {
  file: string
  args: string[]
  env: NodeJS.ProcessEnv
  /** Opened on bubblewrap's fd 3 (the seccomp filter of Modus's own line). */
  fd3?: string
}

export interface WarmSandboxSpec {
  /** The request dir: FIFOs `req`, `res`, `life`, read-only inside this sandbox and absent from every other. */
  dir: string
  launch: WarmLaunch
  /** Paths whose identity (device and inode) must stay as at the start: protected, hidden, roots, the terminal. */
  watched: readonly string[]
  /** Absent protected paths bubblewrap creates as mount points: their identity is taken once it runs. */
  placeholders: readonly string[]
  idleMs: number
  readyTimeoutMs: number
  /** Once the sandbox has ended (its placeholders may go). */
  onExit: () => void
}

export interface WarmCommand {
  id: string
  /** The command's proxy identity (network modes), or empty. */
  identity: string
  /** The `bash -c` text (prelude, then the command). */
  script: string
}

export interface WarmSandbox {
  /** A task shell still waits for a command in it (a second one takes the per-command path). */
  busy(): boolean
  /** Every watched path is still the file it was laid out over, and it still runs. */
  intact(): boolean
  /** Hands one command over: the text the task shell runs. */
  request(command: WarmCommand): string
  /** The task shell is done with the command (its end marker, or the shell was killed). */
  ended(id: string): void
  /** Ends it; resolves once it has ended (its placeholders are gone unless another sandbox holds them). */
  close(): Promise<void>
}

/** Device, inode and device number of a path, or `-` where nothing is. */
function identityOf(path: string): string {
  const stat = lstatSync(path, { bigint: true, throwIfNoEntry: false })
  return stat ? `${stat.dev}:${stat.ino}:${stat.rdev}` : '-'
}

const identities = (paths: readonly string[]): Map<string, string> =>
  new Map(paths.map((path) => [path, identityOf(path)]))

/** Starts it and waits for its server; null when it did not come up (the command takes the per-command path). */
export function startWarmSandbox(spec: WarmSandboxSpec): Promise<WarmSandbox | null> {
  const before = identities(spec.watched)
  let after = new Map<string, string>()
  const fd3 = spec.launch.fd3 === undefined ? null : openSync(spec.launch.fd3, 'r')
  let child: ChildProcess
  try {
    child = spawn(spec.launch.file, spec.launch.args, {
      env: spec.launch.env,
      stdio: ['ignore', 'pipe', 'pipe', ...(fd3 === null ? [] : [fd3])]
    })
  } finally {
    if (fd3 !== null) closeSync(fd3)
  }
  let alive = true
  let closing = false
  let exited: () => void = () => undefined
  const exit = new Promise<void>((resolve) => (exited = resolve))
  // The command whose task shell waits for it; the commands handed over whose `done` has not come
  // (with the timer that ends the sandbox if one never comes).
  let running: string | null = null
  const handedOver = new Map<string, NodeJS.Timeout | null>()
  let idle: NodeJS.Timeout | null = null
  let ready: (up: boolean) => void = () => undefined
  let stderr = ''
  const clearTimers = (): void => {
    if (idle) clearTimeout(idle)
    idle = null
    for (const [id, stuck] of handedOver) {
      if (stuck) clearTimeout(stuck)
      handedOver.set(id, null)
    }
  }
  // The client reads its .trap file after the answer: it goes once the task shell is done with the command.
  const dropFiles = (id: string, suffixes = ['cmd', 'env']): void => {
    for (const suffix of suffixes) removeFile(join(spec.dir, `${id}.${suffix}`))
  }
  const close = (): Promise<void> => {
    closing = true
    clearTimers()
    if (alive) child.kill('SIGKILL')
    return exit
  }
  const done = (id: string): void => {
    if (!handedOver.has(id)) return
    const stuck = handedOver.get(id)
    if (stuck) clearTimeout(stuck)
    handedOver.delete(id)
    if (running === id) running = null
    dropFiles(id)
    if (handedOver.size > 0 || closing) return
    idle = setTimeout(() => void close(), spec.idleMs)
    idle.unref()
  }
  let pending = ''
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    pending += text
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 1)
      if (line === 'ready') ready(true)
      else if (line.startsWith('done ')) done(line.split(' ')[1] ?? '')
    }
  })
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 4000) stderr += text
  })
  child.on('error', () => ready(false))
  child.on('exit', () => {
    alive = false
    clearTimers()
    ready(false)
    // A client still waiting for its answer gets one: the command did not finish.
    if (running) answer(spec.dir, `${running} 125`)
    for (const id of handedOver.keys()) dropFiles(id)
    running = null
    handedOver.clear()
    spec.onExit()
    rmSync(spec.dir, { recursive: true, force: true })
    exited()
  })
  const warm: WarmSandbox = {
    busy: () => running !== null,
    intact() {
      if (!alive || closing) return false
      for (const [path, identity] of [...before, ...after]) if (identityOf(path) !== identity) return false
      return true
    },
    request(command) {
      if (idle) clearTimeout(idle)
      idle = null
      running = command.id
      handedOver.set(command.id, null)
      writeFileSync(join(spec.dir, `${command.id}.cmd`), command.script, { mode: 0o600 })
      return warmClient(spec.dir, command.id, command.identity)
    },
    ended(id) {
      dropFiles(id, ['trap'])
      if (running === id) running = null
      if (!handedOver.has(id) || handedOver.get(id)) return
      // The server answers as soon as the command and what it left have ended; one that does not is ended with it.
      const stuck = setTimeout(() => void close(), 15_000)
      stuck.unref()
      handedOver.set(id, stuck)
    },
    close
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => ready(false), spec.readyTimeoutMs)
    ready = (up) => {
      ready = () => undefined
      clearTimeout(timer)
      if (!up) {
        void close()
        if (stderr) console.warn(`[sandbox] the warm sandbox did not start: ${stderr.trim().slice(0, 500)}`)
        resolve(null)
        return
      }
      after = identities(spec.placeholders)
      idle = setTimeout(() => void close(), spec.idleMs)
      idle.unref()
      resolve(warm)
    }
  })
}

/** Writes a line to the response FIFO without blocking (read-write open: there need be no reader). */
function answer(dir: string, line: string): void {
  try {
    const fd = openSync(join(dir, 'res'), 'r+')
    writeSync(fd, `${line}\n`)
    closeSync(fd)
  } catch {
    // No FIFO any more: no client can wait on it.
  }
}

/** One request file gone (rmSync's force goes through a slower walk, on every command's path). */
function removeFile(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone (its sandbox ended, or the client never wrote it).
  }
}
