import { spawn } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCheckpointService } from '../../../src/main/core/checkpoints'
import { cleanup, tempDir, userRepository, userState, write } from './support/repo'

const repoRoot = resolve(__dirname, '../../..')
const jiti = join(repoRoot, 'node_modules/jiti/lib/jiti-cli.mjs')
const dirs: string[] = []
afterEach(() => cleanup(...dirs.splice(0)))

describe('kill -9 during a checkpoint or a restore', () => {
  it("leaves the workspace, the user's git and the store usable", async () => {
    const root = userRepository()
    const data = tempDir('modus-cp-kill-')
    dirs.push(root, data)
    for (let i = 1; i <= 300; i++) write(root, `gen/f${i}.txt`, 'initial\n')
    const before = userState(root)
    const child = spawn(process.execPath, [jiti, join(__dirname, 'support/kill-child.ts')], {
      cwd: repoRoot,
      env: { ...process.env, KILL_WORKSPACE: root, KILL_DATA_DIR: join(data, 'checkpoints') },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // Let it get through two rounds, then kill it somewhere in the middle of the third.
    await new Promise<void>((ready, fail) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('ROUND 1')) setTimeout(ready, 150)
      })
      child.on('exit', (code) => fail(new Error(`child exited (${code}): ${stderr}`)))
    })
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited

    // Every file is whole: either its old or its new content, never a torn write.
    for (const name of readdirSync(join(root, 'gen')).filter((n) => n.endsWith('.txt'))) {
      expect(readFileSync(join(root, 'gen', name), 'utf8')).toMatch(/^(initial|\d+)\n$/)
    }
    expect(userState(root).gitDir).toEqual(before.gitDir)
    expect(userState(root).index.equals(before.index)).toBe(true)

    // A new process picks the store up: snapshots work again (a stale index.lock is cleared) and a restore plan is complete.
    const checkpoints = createCheckpointService({ dir: join(data, 'checkpoints') }).forWorkspace(root)
    const marker = await checkpoints.mark('t1', 'after the crash')
    const { capture } = await checkpoints.aroundCommand('t1', async () =>
      execFileSync('sh', ['-c', 'echo after > gen/f1.txt && echo new > gen/new.txt'], { cwd: root })
    )
    expect(capture.failure).toBeUndefined()
    expect(capture.changed.sort()).toEqual(['gen/f1.txt', 'gen/new.txt'])
    const plan = await checkpoints.planRestore('t1', marker.id)
    expect(plan.map((f) => f.path)).toEqual(['gen/f1.txt', 'gen/new.txt'])
    expect(plan[1].target).toBeNull()
    expect((await checkpoints.markers('t1')).length).toBeGreaterThanOrEqual(3)
    expect(
      execFileSync('git', ['--no-optional-locks', 'status', '--porcelain'], { cwd: root, encoding: 'utf8' })
    ).toContain('gen/')
  }, 120_000)
})
