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
    // No text: the language is loaded ahead of the files that will need it.
    if (text === undefined) return parentPort.postMessage({ id, found: [] })
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
 * A worker with nothing to parse for this long is stopped if a big file grew its wasm heap (it keeps
 * the size of the largest file it parsed), and a fresh one is started in its place.
 */
export const PARSE_WORKER_IDLE_STOP_MS = 5_000
/**
 * A worker that parsed no text longer than this stays when idle, ready for the next edit: a 16 kB
 * file left a worker with the JavaScript grammar at about 20 MB, a 700 kB bundle at about 37 MB.
 * Starting one costs 0.2-0.6 s (runtime and grammar compiled), the first edit after a stop paid it.
 */
export const SMALL_HEAP_TEXT_CHARS = 128 * 1024
/** Languages a replacement worker loads before any file arrives: the ones parsed last. */
const STANDBY_LANGUAGES = 2
/** Files parsed ahead of their update and kept until it asks (an edit burst may touch a few). */
const PARSED_AHEAD = 4

export interface WorkerParserOptions {
  idleStopMs?: number
  smallHeapTextChars?: number
  /**
   * False: the worker stops whenever it is idle, whatever it parsed, and no fresh one stands by (a
   * pool's extra worker, there for a build's backlog only).
   */
  standby?: boolean
}

/** What a parse worker holds now (for the status and tests). */
export interface ParseWorkerState {
  /** The running worker's thread id (null: none running). */
  threadId: number | null
  /** Languages the running worker has loaded or is loading. */
  languages: string[]
  /** The worker failed: this thread parses from now on. */
  inThread: boolean
  /** Texts sent to a worker to parse, since this parser was made. */
  parses: number
  /** Worker threads running (a pool may run more than one). */
  running: number
}

export interface WorkerCodeParser extends CodeParser {
  warm(language: LanguageSpec, text?: string): void
  state(): ParseWorkerState
}

interface Reply {
  id: number
  found?: DefinitionMatch[]
  error?: string
}

/**
 * A CodeParser whose parsing runs in a worker thread: the index's build reads, hashes, chunks and
 * stores on this thread while the next file is parsed there (tree-sitter was half of this thread's
 * time in a build). A worker that cannot start or dies hands every file, from then on, to the
 * parser in this thread. `warm` starts the worker and loads a language before a file needs it (the
 * watcher calls it while an edit's debounce runs), so a one-file update does not wait for either.
 */
export function createWorkerCodeParser({
  idleStopMs = PARSE_WORKER_IDLE_STOP_MS,
  smallHeapTextChars = SMALL_HEAP_TEXT_CHARS,
  standby = true
}: WorkerParserOptions = {}): WorkerCodeParser {
  const local = createCodeParser()
  const waiting = new Map<number, { resolve: (m: DefinitionMatch[]) => void; reject: (e: Error) => void }>()
  let nextId = 0
  let worker: Worker | null = null
  let broken = false
  /** The running worker's languages, and whether a big text grew its heap. */
  let languages = new Set<string>()
  let grown = false
  /** Languages parsed, the latest first. */
  let recent: LanguageSpec[] = []
  /** Texts parsed ahead (warm with a text), the latest first: the parse that asks for one of them gets its answer. */
  let ahead: Array<{ text: string; language: string; found: Promise<DefinitionMatch[]> }> = []
  let parses = 0

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
    languages = new Set()
    grown = false
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
  const stop = () => {
    const idle = worker
    worker = null
    void idle?.terminate()
  }
  /** A worker whose heap a big file grew goes; a fresh one loads the languages parsed last. */
  const onIdle = () => {
    if (broken) return
    if (!standby) return stop()
    if (!grown) return
    stop()
    for (const spec of recent.slice(0, STANDBY_LANGUAGES)) warm(spec)
  }
  const send = (spec: LanguageSpec, text?: string): Promise<DefinitionMatch[]> =>
    new Promise<DefinitionMatch[]>((resolve, reject) => {
      clearTimeout(idleTimer)
      worker ??= start()
      const id = nextId++
      waiting.set(id, { resolve, reject })
      languages.add(spec.id)
      if (text !== undefined) parses++
      if (text !== undefined && text.length > smallHeapTextChars) grown = true
      worker.ref()
      worker.postMessage({ id, text, language: spec.id, grammar: grammarWasm(spec.grammar), query: spec.query })
    }).finally(() => {
      if (waiting.size > 0) return
      // An idle worker does not keep the process alive.
      worker?.unref()
      idleTimer = setTimeout(onIdle, idleStopMs)
      idleTimer.unref()
    })
  const warm = (spec: LanguageSpec, text?: string) => {
    if (broken) return
    if (text === undefined) {
      if (!worker || !languages.has(spec.id)) send(spec).catch(() => undefined) // a failure shows at the next parse
      return
    }
    if (ahead.some((a) => a.text === text && a.language === spec.id)) return
    const found = send(spec, text)
    found.catch(() => undefined) // a failure reaches the parse that asks for it (which then runs in this thread)
    ahead = [{ text, language: spec.id, found }, ...ahead].slice(0, PARSED_AHEAD)
  }
  /** The worker's answer for this text: parsed ahead, or sent now. */
  const parse = (text: string, spec: LanguageSpec): Promise<DefinitionMatch[]> => {
    const hit = ahead.find((a) => a.text === text && a.language === spec.id)
    if (!hit) return send(spec, text)
    ahead = ahead.filter((a) => a !== hit)
    return hit.found
  }

  return {
    async definitions(text, spec) {
      recent = [spec, ...recent.filter((r) => r.id !== spec.id)].slice(0, STANDBY_LANGUAGES)
      if (!broken) {
        try {
          return definitionsFrom(await parse(text, spec), spec)
        } catch {
          // the worker failed (or could not start): this thread parses, now and from now on
        }
      }
      return local.definitions(text, spec)
    },
    warm,
    state: () => ({
      threadId: worker?.threadId ?? null,
      languages: worker ? [...languages] : [],
      inThread: broken,
      parses,
      running: worker ? 1 : 0
    }),
    dispose() {
      broken = true
      ahead = []
      clearTimeout(idleTimer)
      stop()
      local.dispose()
    }
  }
}
