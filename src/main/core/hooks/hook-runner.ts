import { spawn } from 'node:child_process'
import type { HookRun } from '../../../shared/hooks/output'

const MAX_OUTPUT_BYTES = 256 * 1024

export interface HookProcess {
  command: string
  cwd: string
  /** The JSON event, written to stdin. */
  input: unknown
  timeoutSec: number
  env: Record<string, string | undefined>
  signal?: AbortSignal
}

/**
 * Runs one hook as its own process (never in the task's shell: a hook is the user's program, not
 * the model's command), `/bin/sh -c` in the workspace as Claude Code does, in a process group of its
 * own so a hung hook is stopped with everything it started.
 */
export function runHookProcess(hook: HookProcess): Promise<HookRun> {
  return new Promise((resolve) => {
    const windows = process.platform === 'win32'
    const child = spawn(
      windows ? (process.env.ComSpec ?? 'cmd.exe') : '/bin/sh',
      windows ? ['/d', '/s', '/c', hook.command] : ['-c', hook.command],
      {
        cwd: hook.cwd,
        env: hook.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: !windows,
        windowsHide: true
      }
    )
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let sizes = [0, 0]
    const collect = (into: Buffer[], index: 0 | 1) => (chunk: Buffer) => {
      if ((sizes[index] ?? 0) >= MAX_OUTPUT_BYTES) return
      sizes = index === 0 ? [sizes[0] + chunk.length, sizes[1]] : [sizes[0], sizes[1] + chunk.length]
      into.push(chunk)
    }
    child.stdout.on('data', collect(stdout, 0))
    child.stderr.on('data', collect(stderr, 1))
    let settled = false
    const finish = (run: HookRun) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      hook.signal?.removeEventListener('abort', stop)
      resolve(run)
    }
    const kill = () => {
      try {
        if (!windows && child.pid) process.kill(-child.pid, 'SIGKILL')
        else child.kill('SIGKILL')
      } catch {
        // Already gone.
      }
    }
    const stop = () => {
      kill()
      finish({ kind: 'spawn-failed', error: 'the run was cancelled' })
    }
    const timer = setTimeout(() => {
      kill()
      finish({ kind: 'timed-out', timeoutSec: hook.timeoutSec, stderr: Buffer.concat(stderr).toString('utf8') })
    }, hook.timeoutSec * 1000)
    hook.signal?.addEventListener('abort', stop, { once: true })
    child.on('error', (error) => finish({ kind: 'spawn-failed', error: error.message }))
    child.on('close', (code, signal) => {
      const out = { stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }
      finish({ kind: 'exited', code: code ?? (signal ? 128 : 1), ...out })
    })
    // A hook that does not read its input must not fail the write.
    child.stdin.on('error', () => undefined)
    child.stdin.end(`${JSON.stringify(hook.input)}\n`)
  })
}
