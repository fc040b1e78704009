import { afterEach, describe, expect, it } from 'vitest'
import { languageFor } from '../../../src/main/core/code-index/languages'
import { createWorkerCodeParser, type WorkerCodeParser } from '../../../src/main/core/code-index/parse-worker'
import { createParserPool } from '../../../src/main/core/code-index/parser-pool'

const js = languageFor('a.js')!
const ts = languageFor('a.ts')!
const small = 'function small() {\n  return 1\n}\n'
/** Past the test's small-heap limit (200 characters): a file that grows the worker's heap. */
const big = `${Array.from({ length: 20 }, (_, i) => `function f${i}() { return ${i} }`).join('\n')}\n`
const names = async (parser: WorkerCodeParser, text: string) => (await parser.definitions(text, js)).map((d) => d.name)

/** Polls until `check` holds (a worker starts and loads its grammar in its own time). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let parser: WorkerCodeParser | null = null
afterEach(() => parser?.dispose())

describe('the parse worker between edits', () => {
  it('a worker that a big file grew is stopped when idle; a fresh one stands by with the languages parsed last', async () => {
    parser = createWorkerCodeParser({ idleStopMs: 50, smallHeapTextChars: 200 })
    await parser.definitions(small, ts)
    expect(await names(parser, big)).toContain('f19')
    const grown = parser.state().threadId
    expect(grown).not.toBeNull()
    await until(() => {
      const { threadId, languages } = parser!.state()
      return (
        threadId !== null && threadId !== grown && languages.includes('javascript') && languages.includes('typescript')
      )
    }, 'a fresh worker with both languages')
    const fresh = parser.state().threadId
    expect(await names(parser, small)).toEqual(['small'])
    expect(parser.state()).toMatchObject({ threadId: fresh, inThread: false })
  })

  it('a worker that parsed only small files stays when idle, ready for the next file', async () => {
    parser = createWorkerCodeParser({ idleStopMs: 50, smallHeapTextChars: 200 })
    expect(await names(parser, small)).toEqual(['small'])
    const first = parser.state().threadId
    await sleep(300)
    expect(parser.state()).toMatchObject({ threadId: first, languages: ['javascript'], inThread: false })
    expect(await names(parser, small)).toEqual(['small'])
    expect(parser.state().threadId).toBe(first)
  })

  it('warm starts a worker with the language before any file arrives, once per language', async () => {
    parser = createWorkerCodeParser({ idleStopMs: 50, smallHeapTextChars: 200 })
    expect(parser.state().threadId).toBeNull()
    parser.warm(js)
    const started = parser.state().threadId
    expect(started).not.toBeNull()
    expect(parser.state().languages).toEqual(['javascript'])
    parser.warm(js)
    await sleep(300)
    expect(parser.state().threadId).toBe(started)
    expect(await names(parser, small)).toEqual(['small'])
    expect(parser.state().threadId).toBe(started)
  })

  it('a text parsed ahead answers the parse that asks for the same text; another text is parsed anew', async () => {
    parser = createWorkerCodeParser()
    parser.warm(js, small)
    parser.warm(js, small) // the watcher saw the same file twice: one parse
    expect(await names(parser, small)).toEqual(['small'])
    expect(parser.state().parses).toBe(1)
    expect(await names(parser, big)).toContain('f0')
    expect(parser.state().parses).toBe(2)
    // Parsed ahead as TypeScript, asked for as JavaScript: not the same answer.
    parser.warm(ts, small)
    expect(await names(parser, small)).toEqual(['small'])
    expect(parser.state().parses).toBe(4)
  })

  it('after dispose, warm starts nothing', () => {
    parser = createWorkerCodeParser()
    parser.dispose()
    parser.warm(js)
    expect(parser.state().threadId).toBeNull()
  })
})

describe('the parse workers of a build', () => {
  const file = (i: number) => `function file${i}() {\n  return ${i}\n}\n`

  it('a backlog of parses is spread over a second worker, which stops once idle; the first stands by', async () => {
    // Long enough that both workers still run once the last parse is answered, even on a loaded machine.
    parser = createParserPool({ workers: 2, idleStopMs: 2_000 })
    const texts = Array.from({ length: 12 }, (_, i) => file(i))
    const found = await Promise.all(texts.map((text) => names(parser!, text)))
    expect(found).toEqual(texts.map((_, i) => [`file${i}`]))
    expect(parser.state().parses).toBe(12)
    expect(parser.state().running).toBe(2)
    await until(() => parser!.state().running === 1, 'the second worker to stop')
    expect(parser.state()).toMatchObject({ running: 1, languages: ['javascript'], inThread: false })
    expect(await names(parser, small)).toEqual(['small'])
  })

  it('parses one at a time (edits) use one worker', async () => {
    parser = createParserPool({ workers: 2, idleStopMs: 50 })
    for (let i = 0; i < 3; i++) {
      expect(await names(parser, file(i))).toEqual([`file${i}`])
      expect(parser.state().running).toBe(1)
    }
    const threadId = parser.state().threadId
    await sleep(300)
    expect(parser.state()).toMatchObject({ threadId, running: 1 })
  })
})
