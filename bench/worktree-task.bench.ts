import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { describe, it } from 'vitest'
import { autopilotMode, createHarness } from '../test/core/agent/support/harness'

// Starting an isolated task on a 10k-file repository: from the `worktrees:start` call to the first
// model request the fake provider receives, beside `git worktree add` alone on the same repository,
// interleaved round by round. Figures only, no assertions.

const FILES = Number(process.env.WORKTREE_BENCH_FILES ?? 10_000)
const ROUNDS = Number(process.env.WORKTREE_BENCH_ROUNDS ?? 5)

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (xs: number[]): string =>
  `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}, ${xs.length} runs)`

const quietGit = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@x',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@x'
}
const git = (cwd: string, args: string[]) =>
  execFileSync('git', args, { cwd, env: { ...process.env, ...quietGit }, stdio: ['ignore', 'pipe', 'pipe'] })

function generateRepo(files: number): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `modus-wt-bench-${files}-`)))
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`)
    if (i % 100 === 0) mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `file${i}.ts`), `// file ${i}\nexport const value${i} = ${i}\n`)
  }
  git(root, ['init', '-q'])
  git(root, ['add', '-A'])
  git(root, ['commit', '-q', '-m', 'generated'])
  return root
}

describe('worktree task start', () => {
  it(`time to the first model request of an isolated task on ${FILES} files, beside git worktree add`, async () => {
    const repo = generateRepo(FILES)
    const harness = await createHarness({ workspace: repo, modes: [autopilotMode], trusted: true })
    const plainDir = mkdtempSync(join(tmpdir(), 'modus-wt-bench-plain-'))
    const plain: number[] = []
    const isolated: number[] = []
    const loads: number[] = [loadavg()[0]]
    try {
      for (let round = 0; round < ROUNDS; round++) {
        let t0 = performance.now()
        git(repo, ['worktree', 'add', '--quiet', '-b', `bench/plain-${round}`, join(plainDir, `p${round}`), 'HEAD'])
        plain.push(performance.now() - t0)

        let firstRequest = 0
        harness.fake.enqueue(() => {
          firstRequest = performance.now()
          return { toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }
        })
        t0 = performance.now()
        const task = await harness.services.worktrees.start({
          workspace: repo,
          text: `bench round ${round}`,
          mode: 'autopilot'
        })
        await harness.waitForEvent((e, id) => e.type === 'completion' && id === task.taskId, 'the bench task')
        isolated.push(firstRequest - t0)
        loads.push(loadavg()[0])
      }
    } finally {
      await harness.close()
    }
    console.log(
      `[worktree-task] ${FILES} files, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`
    )
    console.log(`[worktree-task] git worktree add alone:                 ${fmt(plain)}`)
    console.log(`[worktree-task] isolated task, start → first model request: ${fmt(isolated)}`)
    console.log(
      `[worktree-task] overhead over git worktree add (medians):  ${(median(isolated) - median(plain)).toFixed(0)} ms`
    )
  })
})
