import { availableParallelism } from 'node:os'
import { createWorkerCodeParser, type WorkerCodeParser, type WorkerParserOptions } from './parse-worker'

/**
 * Parses waiting on the first worker before the next one is used: a build keeps many in flight (its
 * reads ahead), an edit one or two, which the first worker (warmed, maybe holding the parse ahead)
 * answers alone.
 */
const SPREAD_FROM_WAITING = 4
/**
 * Workers at most: with two, a build's parsing no longer outruns the indexing thread (which then
 * waited for the parse most of the time; it uses about half of what the parsing does).
 */
const MAX_WORKERS = 2

export interface ParserPoolOptions extends WorkerParserOptions {
  /** Worker threads at most (default: 2, or 1 on a one-core machine). */
  workers?: number
}

/**
 * Parse workers for the index: the first is the one `createWorkerCodeParser` describes (warmed for
 * edits, standing by between them); the others start only when a build's parses queue up behind it
 * and stop as soon as they are idle, so a one-file update and an idle app hold one worker.
 */
export function createParserPool({
  workers = Math.min(MAX_WORKERS, availableParallelism()),
  ...options
}: ParserPoolOptions = {}): WorkerCodeParser {
  const first = createWorkerCodeParser(options)
  const extra = Array.from({ length: Math.max(0, workers - 1) }, () =>
    createWorkerCodeParser({ ...options, standby: false })
  )
  const all = [first, ...extra]
  const waiting = new Map<WorkerCodeParser, number>(all.map((p) => [p, 0]))
  /** The first worker unless it has a queue; then the least busy one. */
  const pick = (): WorkerCodeParser => {
    if (waiting.get(first)! < SPREAD_FROM_WAITING) return first
    return all.reduce((best, p) => (waiting.get(p)! < waiting.get(best)! ? p : best))
  }
  return {
    async definitions(text, spec) {
      const parser = pick()
      waiting.set(parser, waiting.get(parser)! + 1)
      try {
        return await parser.definitions(text, spec)
      } finally {
        waiting.set(parser, waiting.get(parser)! - 1)
      }
    },
    warm: (spec, text) => first.warm(spec, text),
    state: () => {
      const states = all.map((p) => p.state())
      const sum = (key: 'parses' | 'running') => states.reduce((total, state) => total + state[key], 0)
      return { ...states[0], parses: sum('parses'), running: sum('running') }
    },
    dispose() {
      for (const parser of all) parser.dispose()
    }
  }
}
