// Run by bench/build-ab.mjs in a process of its own (through jiti): one full build of the code index
// of `ws` with the indexer of the checkout `tree` (this one or an older one, for a same-run A/B), the
// embeddings at `baseUrl` (or none: `off`). One JSON line: wall time, counts, and the CPU of each of
// this process's threads during the build (Linux), so a loaded machine's waits can be told apart.
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

const [tree, ws, baseUrl, vectors] = process.argv.slice(2)
const codeIndexDir = join(tree, 'src', 'main', 'core', 'code-index')

/** CPU ms of each thread so far: `main`, else the thread's name and id. */
function threadCpu(): Record<string, number> {
  const threads: Record<string, number> = {}
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    threads[tid === String(process.pid) ? 'main' : `${name}:${tid}`] = (Number(fields[11]) + Number(fields[12])) * 10
  }
  return threads
}

async function main(): Promise<void> {
  const { openCodeIndex } = await import(join(codeIndexDir, 'code-index.ts'))
  const { createEmbedder } = await import(join(codeIndexDir, 'embedder.ts'))
  const pool = join(codeIndexDir, 'parser-pool.ts')
  const parser = existsSync(pool)
    ? (await import(pool)).createParserPool()
    : (await import(join(codeIndexDir, 'parse-worker.ts'))).createWorkerCodeParser()
  const embedder = createEmbedder({ baseUrl, model: 'fake' })
  const dir = mkdtempSync(join(tmpdir(), 'modus-build-once-'))
  const index = await openCodeIndex({
    root: ws,
    dir,
    parser,
    embedder: async () => (vectors === 'off' ? null : { embedder, baseUrl })
  })
  const before = threadCpu()
  const started = performance.now()
  await index.sync()
  const ms = performance.now() - started
  const after = threadCpu()
  const status = index.status()
  await index.close()
  parser.dispose()
  rmSync(dir, { recursive: true, force: true })
  const threads = Object.fromEntries(
    Object.entries(after)
      .map(([name, cpu]) => [name, cpu - (before[name] ?? 0)] as const)
      .filter(([, cpu]) => cpu >= 100)
  )
  const line = { ms: Math.round(ms), files: status.filesTotal, chunks: status.chunks, load: loadavg()[0], threads }
  console.log(JSON.stringify(line))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
