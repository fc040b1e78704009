import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { MountPointJanitor } from './mount-points'
import { startWarmSandbox, type WarmSandbox, type WarmSandboxSpec } from './warm-sandbox'

/**
 * The warm sandboxes of a sandbox service: one per task, mode and task terminal (its terminal is
 * bound in), laid out for one set of settings (`config`). Other settings, or a path on disk that is
 * no longer the file it was laid out over, end it and start another; a busy one sends the command
 * down the per-command path. A warm sandbox holds its placeholders (empty files over absent
 * protected paths) through the janitor until it ends.
 */
export interface WarmPoolDeps {
  janitor: MountPointJanitor
  /** Where request dirs are made (hidden in every sandbox; each is bound into its own one only). */
  baseDir: () => string
  idleMs: number
  readyTimeoutMs: number
}

export type WarmBuild = Omit<WarmSandboxSpec, 'dir' | 'idleMs' | 'readyTimeoutMs' | 'onExit'>

export interface WarmPool {
  /** The slot's warm sandbox for `config`, started if need be; null when the command takes the per-command path. */
  acquire(slot: string, taskId: string, config: string, build: (dir: string) => WarmBuild): Promise<WarmSandbox | null>
  /** Ends the task's warm sandboxes; resolves once they have ended. */
  endTask(taskId: string): Promise<void>
  dispose(): Promise<void>
}

/** A configuration that did not start is not tried again for this long. */
const FAILED_RETRY_MS = 60_000

export function createWarmPool(deps: WarmPoolDeps): WarmPool {
  const slots = new Map<string, { config: string; taskId: string; warm: Promise<WarmSandbox | null> }>()
  const failed = new Map<string, number>()

  function start(slot: string, taskId: string, config: string, build: (dir: string) => WarmBuild) {
    const dir = mkdtempSync(join(deps.baseDir(), 'warm-'))
    const made = spawnSync('mkfifo', ['-m', '600', ...['req', 'res', 'life'].map((name) => join(dir, name))])
    if (made.status !== 0) {
      rmSync(dir, { recursive: true, force: true })
      return Promise.resolve(null)
    }
    const spec = build(dir)
    deps.janitor.begin(spec.placeholders)
    const entry = {
      config,
      taskId,
      warm: startWarmSandbox({
        ...spec,
        dir,
        idleMs: deps.idleMs,
        readyTimeoutMs: deps.readyTimeoutMs,
        onExit: () => {
          if (slots.get(slot) === entry) slots.delete(slot)
          deps.janitor.end()
        }
      })
    }
    slots.set(slot, entry)
    return entry.warm
  }

  return {
    async acquire(slot, taskId, config, build) {
      const entry = slots.get(slot)
      if (entry) {
        const warm = await entry.warm
        // A task shell still in a command here (it never is for its own next one): the per-command path.
        if (warm?.busy()) return null
        if (warm && entry.config === config && warm.intact()) return warm
        void warm?.close()
        if (slots.get(slot) === entry) slots.delete(slot)
      }
      const since = failed.get(config)
      if (since !== undefined && Date.now() - since < FAILED_RETRY_MS) return null
      const warm = await start(slot, taskId, config, build)
      if (!warm) failed.set(config, Date.now())
      return warm
    },
    async endTask(taskId) {
      const ending = [...slots.values()].filter((entry) => entry.taskId === taskId)
      await Promise.all(ending.map((entry) => entry.warm.then((warm) => warm?.close())))
    },
    async dispose() {
      const ending = [...slots.values()]
      slots.clear()
      await Promise.all(ending.map((entry) => entry.warm.then((warm) => warm?.close())))
    }
  }
}
