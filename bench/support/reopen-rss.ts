// Run by bench/code-index.bench.ts in a process of its own (through jiti): opens a kept index as the
// app does after a restart (one query, a sync of the unchanged tree, then, with `warm`, the parser
// readied as the service does once that sync ends), prints the process's memory once the parse
// worker had time to go idle, then times the first and second update of one edited file, each run
// after the watcher's debounce (with `warm`, the edit is seen as the watcher sees it first). The
// building process keeps what the build allocated; this one does not. One JSON line on stdout.
import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openCodeIndex } from '../../src/main/core/code-index/code-index'
import { createEmbedder } from '../../src/main/core/code-index/embedder'
import { PARSE_WORKER_IDLE_STOP_MS } from '../../src/main/core/code-index/parse-worker'
import { createParserPool } from '../../src/main/core/code-index/parser-pool'

const [root, dir, baseUrl, edited, mode] = process.argv.slice(2)
/** watcher.ts's default: an edit's update starts this long after its last event. */
const WATCHER_DEBOUNCE_MS = 300

async function main(): Promise<void> {
  const parser = createParserPool()
  const embedder = createEmbedder({ baseUrl, model: 'fake' })
  const index = await openCodeIndex({ root, dir, parser, embedder: async () => ({ embedder, baseUrl }) })
  await index.search('createElement', { limit: 10 })
  await index.sync()
  if (mode === 'warm') void index.warmParser()
  await new Promise((resolve) => setTimeout(resolve, PARSE_WORKER_IDLE_STOP_MS + 1000))
  ;(globalThis as { gc?: () => void }).gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  const updates: number[] = []
  if (edited) {
    const file = join(root, edited)
    const [before, stat] = [readFileSync(file), statSync(file)]
    try {
      for (const name of ['benchFirstAfterReopen', 'benchSecondAfterReopen']) {
        appendFileSync(file, `\nfunction ${name}() { return 1 }\n`)
        // As the watcher does: the edit seen (the parser readied, the file parsed ahead), the debounce, the update.
        if (mode === 'warm') void index.warmParser([edited])
        await new Promise((resolve) => setTimeout(resolve, WATCHER_DEBOUNCE_MS))
        const t = performance.now()
        await index.update([edited])
        updates.push(performance.now() - t)
      }
    } finally {
      writeFileSync(file, before)
      utimesSync(file, stat.atime, stat.mtime)
    }
  }
  console.log(JSON.stringify({ rssMb: Math.round(rss / 1e6), heapMb: Math.round(heapUsed / 1e6), updates }))
  await index.close()
  parser.dispose()
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
