// Run by bench/code-index.bench.ts in a process of its own (through jiti): opens a kept index as the
// app does after a restart, answers one query and syncs the unchanged tree, then prints the process's
// memory as one JSON line. The building process keeps what the build allocated; this one does not.
import { openCodeIndex } from '../../src/main/core/code-index/code-index'
import { createEmbedder } from '../../src/main/core/code-index/embedder'
import { createWorkerCodeParser, PARSE_WORKER_IDLE_STOP_MS } from '../../src/main/core/code-index/parse-worker'

const [root, dir, baseUrl] = process.argv.slice(2)

async function main(): Promise<void> {
  const parser = createWorkerCodeParser()
  const embedder = createEmbedder({ baseUrl, model: 'fake' })
  const index = await openCodeIndex({ root, dir, parser, embedder: async () => ({ embedder, baseUrl }) })
  await index.search('createElement', { limit: 10 })
  await index.sync()
  await new Promise((resolve) => setTimeout(resolve, PARSE_WORKER_IDLE_STOP_MS + 1000))
  ;(globalThis as { gc?: () => void }).gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  console.log(JSON.stringify({ rssMb: Math.round(rss / 1e6), heapMb: Math.round(heapUsed / 1e6) }))
  await index.close()
  parser.dispose()
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
