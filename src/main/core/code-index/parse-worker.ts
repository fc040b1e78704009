import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { LanguageSpec } from './languages'
import { createCodeParser, definitionsFrom, type CodeParser, type DefinitionMatch } from './parser'
import { grammarWasm, treeSitterRuntimeWasm } from './wasm-files'

const requireFromHere = createRequire(import.meta.url)

/**
 * The worker's code, plain CommonJS given as source (one file whatever bundles the app: no second
 * entry to build or to find beside app.asar). It parses and runs the query, and sends back each
 * match that names a definition as `definitionMatches` in parser.ts reads it.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads')
const { readFileSync } = require('node:fs')
const { Parser, Language, Query } = require(workerData.treeSitter)
const ready = Parser.init({ wasmBinary: readFileSync(workerData.runtimeWasm) })
const languages = new Map()
const load = (id, grammar, source) => {
  let loaded = languages.get(id)
  if (!loaded) {
    loaded = ready.then(async () => {
      const language = await Language.load(readFileSync(grammar))
      const parser = new Parser()
      parser.setLanguage(language)
      return { parser, query: new Query(language, source) }
    })
    languages.set(id, loaded)
  }
  return loaded
}
parentPort.on('message', async ({ id, text, language, grammar, query: source }) => {
  try {
    const { parser, query } = await load(language, grammar, source)
    const tree = parser.parse(text)
    const found = []
    if (tree) {
      try {
        for (const match of query.matches(tree.rootNode)) {
          const definition = match.captures.find((c) => c.name.startsWith('definition.'))
          if (!definition) continue
          const name = match.captures.find((c) => c.name === 'name')
          const node = definition.node
          found.push({
            pattern: match.patternIndex,
            kind: definition.name.slice('definition.'.length),
            start: node.startIndex,
            end: node.endIndex,
            startRow: node.startPosition.row,
            endRow: node.endPosition.row,
            endColumn: node.endPosition.column,
            name: name ? name.node.text : ''
          })
        }
      } finally {
        tree.delete()
      }
    }
    parentPort.postMessage({ id, found })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) })
  }
})
`

/**
 * A worker with nothing to parse for this long is stopped: its wasm heap keeps the size of the
 * largest file it parsed. The next file starts another (a runtime and grammar load, ~0.1 s).
 */
export const PARSE_WORKER_IDLE_STOP_MS = 5_000

interface Reply {
  id: number
  found?: DefinitionMatch[]
  error?: string
}

/**
 * A CodeParser whose parsing runs in a worker thread: the index's build reads, hashes, chunks and
 * stores on this thread while the next file is parsed there (tree-sitter was half of this thread's
 * time in a build). A worker that cannot start or dies hands every file, from then on, to the
 * parser in this thread.
 */
export function createWorkerCodeParser(): CodeParser {
  const local = createCodeParser()
  const waiting = new Map<number, { resolve: (m: DefinitionMatch[]) => void; reject: (e: Error) => void }>()
  let nextId = 0
  let worker: Worker | null = null
  let broken = false

  const giveUp = (error: Error) => {
    broken = true
    for (const { reject } of waiting.values()) reject(error)
    waiting.clear()
    void worker?.terminate()
    worker = null
  }
  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        treeSitter: requireFromHere.resolve('web-tree-sitter'),
        runtimeWasm: treeSitterRuntimeWasm()
      }
    })
    started.on('message', (reply: Reply) => {
      const pending = waiting.get(reply.id)
      waiting.delete(reply.id)
      if (reply.error !== undefined) pending?.reject(new Error(reply.error))
      else pending?.resolve(reply.found ?? [])
    })
    // A worker stopped for being idle is not a failure.
    started.on('error', (error: Error) => started === worker && giveUp(error))
    started.on('exit', () => started === worker && giveUp(new Error('the parse worker stopped')))
    return started
  }
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const stopIdle = () => {
    const idle = worker
    worker = null
    void idle?.terminate()
  }
  const inWorker = (text: string, spec: LanguageSpec): Promise<DefinitionMatch[]> =>
    new Promise<DefinitionMatch[]>((resolve, reject) => {
      clearTimeout(idleTimer)
      worker ??= start()
      const id = nextId++
      waiting.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ id, text, language: spec.id, grammar: grammarWasm(spec.grammar), query: spec.query })
    }).finally(() => {
      if (waiting.size > 0) return
      // An idle worker does not keep the process alive, and one idle for long goes with its memory.
      worker?.unref()
      idleTimer = setTimeout(stopIdle, PARSE_WORKER_IDLE_STOP_MS)
      idleTimer.unref()
    })

  return {
    async definitions(text, spec) {
      if (!broken) {
        try {
          return definitionsFrom(await inWorker(text, spec), spec)
        } catch {
          // the worker failed (or could not start): this thread parses, now and from now on
        }
      }
      return local.definitions(text, spec)
    },
    dispose() {
      broken = true
      clearTimeout(idleTimer)
      stopIdle()
      local.dispose()
    }
  }
}
