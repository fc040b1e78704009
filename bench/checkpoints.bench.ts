import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'vitest'
import { createCheckpointService } from '../src/main/core/checkpoints'

// Checkpoints on generated trees of 10k and 50k files (a committed git repository, as most projects
// are), each figure beside the peers' approach in the same run: `git add -A && git commit` into a
// plain shadow repository (its own GIT_DIR, work tree = the project). Figures only, no assertions.

const SIZES = (process.env.CHECKPOINT_BENCH_SIZES ?? '10000,50000').split(',').map(Number)
const ROUNDS = 3
const TURNS = 100

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (xs: number[]): string =>
  `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

const quietGit = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@x',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@x'
}
const git = (cwd: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...quietGit, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 28
  })

function generateTree(files: number): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `modus-cp-bench-${files}-`)))
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`)
    if (i % 100 === 0) mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, `file${i}.ts`),
      `// file ${i}\nexport const value${i} = ${i}\n${'const filler = "lorem ipsum dolor sit amet";\n'.repeat(20)}`
    )
  }
  git(root, ['init', '-q'])
  git(root, ['add', '-A'])
  git(root, ['commit', '-q', '-m', 'generated'])
  return root
}

function duBytes(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    total += entry.isDirectory() ? duBytes(full) : statSync(full).size
  }
  return total
}

/** The peers' shadow repository: a GIT_DIR of its own, the project as work tree, a commit per checkpoint. */
function createShadowBaseline(root: string) {
  const gitDir = mkdtempSync(join(tmpdir(), 'modus-cp-baseline-'))
  const env = { GIT_DIR: gitDir, GIT_WORK_TREE: root }
  git(root, ['init', '-q'], env)
  let n = 0
  const commit = () => {
    git(root, ['add', '-A'], env)
    git(root, ['commit', '-q', '--allow-empty', '--no-verify', '-m', `checkpoint ${n++}`], env)
  }
  const head = () => git(root, ['rev-parse', 'HEAD'], env).toString().trim()
  const restore = (commitId: string) => {
    git(root, ['clean', '-f', '-d', '-q'], env)
    git(root, ['reset', '-q', '--hard', commitId], env)
  }
  return {
    gitDir,
    commit,
    head,
    restore,
    bytes: () => duBytes(gitDir),
    dispose: () => rmSync(gitDir, { recursive: true, force: true })
  }
}

async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await work()
  return { ms: performance.now() - started, value }
}

describe('checkpoints vs a plain shadow repository', () => {
  for (const size of SIZES) {
    it(`${size} files`, async () => {
      const tGen = performance.now()
      const root = generateTree(size)
      const data = mkdtempSync(join(tmpdir(), 'modus-cp-bench-data-'))
      const generatedIn = performance.now() - tGen
      const service = createCheckpointService({ dir: join(data, 'checkpoints') })
      const checkpoints = service.forWorkspace(root)
      const baseline = createShadowBaseline(root)
      const rows: string[] = []
      const file = (n: number) => {
        const i = n % size
        return join(root, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`, `file${i}.ts`)
      }
      const touch = (i: number, text: string) => () => appendFileSync(file(i), text)

      // First checkpoint of a task on this tree (the shadow index is built once).
      const firstModus = await time(() => checkpoints.aroundCommand('bench', async () => undefined))
      const firstBaseline = await time(() => baseline.commit())
      rows.push(`| first snapshot of the tree | ${firstModus.ms.toFixed(0)} ms | ${firstBaseline.ms.toFixed(0)} ms |`)

      // An edit: Modus saves the file's previous and new content; the peers commit the whole tree.
      const edit: number[] = []
      const editBaseline: number[] = []
      for (let r = 0; r < ROUNDS; r++) {
        edit.push(
          (await time(() => checkpoints.recordWrite('bench', file(r), async () => touch(r, `// edit ${r}\n`)()))).ms
        )
        touch(r + 10, `// edit ${r}\n`)()
        editBaseline.push((await time(() => baseline.commit())).ms)
      }
      rows.push(`| checkpoint after one edited file | ${fmt(edit)} | ${fmt(editBaseline)} |`)

      // A command that changes one file: snapshots before and after vs a commit before and after.
      const command: number[] = []
      const commandBaseline: number[] = []
      for (let r = 0; r < ROUNDS; r++) {
        const bare = await time(touch(r + 20, '// command\n'))
        command.push(
          (await time(() => checkpoints.aroundCommand('bench', async () => touch(r + 30, '// command\n')()))).ms -
            bare.ms
        )
        commandBaseline.push(
          (
            await time(() => {
              baseline.commit()
              touch(r + 40, '// command\n')()
              baseline.commit()
            })
          ).ms
        )
      }
      rows.push(`| command snapshot (before + after, one file changed) | ${fmt(command)} | ${fmt(commandBaseline)} |`)

      // Restore after a turn that changed 100 files: plan + write (Modus) vs clean + reset --hard.
      const marker = await checkpoints.mark('bench', 'before 100 changes')
      const baseCommit = baseline.head()
      await checkpoints.aroundCommand('bench', async () => {
        for (let i = 0; i < 100; i++) touch(1000 + i, '// changed by a command\n')()
      })
      const restore = await time(async () => {
        const plan = await checkpoints.planRestore('bench', marker.id)
        for (const entry of plan)
          await checkpoints.recordWrite('bench', join(root, entry.path), async () =>
            writeFileSync(join(root, entry.path), entry.target!)
          )
        return plan.length
      })
      for (let i = 0; i < 100; i++) touch(1000 + i, '// changed by a command\n')()
      baseline.commit()
      const restoreBaseline = await time(() => baseline.restore(baseCommit))
      rows.push(
        `| restore 100 files changed by a command | ${restore.ms.toFixed(0)} ms (${restore.value} files) | ${restoreBaseline.ms.toFixed(0)} ms |`
      )

      // Disk after 100 turns, each with one edit and one command changing one file.
      const before = await checkpoints.usage()
      const baselineBefore = baseline.bytes()
      for (let turn = 0; turn < TURNS; turn++) {
        await checkpoints.mark('bench', `turn ${turn}`)
        await checkpoints.recordWrite('bench', file(2000 + turn), async () => touch(2000 + turn, `// turn ${turn}\n`)())
        await checkpoints.aroundCommand('bench', async () => touch(3000 + turn, `// turn ${turn}\n`)())
        touch(4000 + turn, `// turn ${turn}\n`)()
        baseline.commit()
        touch(5000 + turn, `// turn ${turn}\n`)()
        baseline.commit()
      }
      const after = await checkpoints.usage()
      rows.push(
        `| disk after ${TURNS} turns (total, of which the first snapshot) | ${mb(after.bytes)} (${mb(before.bytes)}; content store ${mb(after.blobBytes)}) | ${mb(baseline.bytes())} (${mb(baselineBefore)}) |`
      )

      console.log(
        [
          `\nCheckpoints on ${size} generated files (tree made and committed in ${(generatedIn / 1000).toFixed(1)} s; median of ${ROUNDS}, min–max)`,
          '| measure | Modus | git add -A && git commit (shadow repo) |',
          '|---|---|---|',
          ...rows
        ].join('\n')
      )
      baseline.dispose()
      rmSync(root, { recursive: true, force: true })
      rmSync(data, { recursive: true, force: true })
    }, 3_600_000)
  }
})
