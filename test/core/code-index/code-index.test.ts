import { execFileSync } from 'node:child_process'
import {
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CodeIndexStatus } from '../../../src/shared/contract/code-index'
import { openCodeIndex, type CodeIndex } from '../../../src/main/core/code-index/code-index'
import { createEmbedder } from '../../../src/main/core/code-index/embedder'
import { createWorkerCodeParser } from '../../../src/main/core/code-index/parse-worker'
import { createCodeParser } from '../../../src/main/core/code-index/parser'
import { openVectorStore } from '../../../src/main/core/code-index/vector-store'
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import * as lancedb from '@lancedb/lancedb'

const parser = createCodeParser()
let fake: FakeProvider
let t: TempWorkspace
let dataDir: string
const opened: CodeIndex[] = []

beforeAll(async () => {
  fake = await startFakeProvider({ name: 'code index embeddings' })
})
afterAll(async () => {
  await fake.close()
  parser.dispose()
})
afterEach(async () => {
  for (const index of opened.splice(0)) await index.close()
  t?.cleanup()
  rmSync(dataDir, { recursive: true, force: true })
  fake.embeddings.failAfter = null
})

const sampleFiles = {
  'src/geometry/circle.ts': [
    'export class Circle {',
    '  constructor(private radius: number) {}',
    '  area(): number {',
    '    return Math.PI * this.radius * this.radius',
    '  }',
    '}',
    ''
  ].join('\n'),
  'src/http/client.py': [
    'import urllib.request',
    '',
    'def fetch_json(url):',
    '    with urllib.request.urlopen(url) as response:',
    '        return response.read()',
    ''
  ].join('\n'),
  'src/db/users.go': [
    'package db',
    '',
    'func FindUserByEmail(email string) (*User, error) {',
    '\treturn lookupUser("email", email)',
    '}',
    ''
  ].join('\n'),
  'docs/guide.md': '# Guide\n\nHow to set up the project and start it.\n',
  'node_modules/lib/index.js': 'function circleArea() {}\n',
  'secret/keys.ts': 'export function circleAreaSecret() {}\n',
  '.modusignore': 'secret/\n',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  'big.js': `// ${'x'.repeat(1_100_000)}\nfunction circleAreaHuge() {}\n`
}

async function open(
  options: {
    model?: string
    batch?: number
    embeddings?: boolean
    annIndexMinFloats?: number
    batchFiles?: number
    onStatus?: (status: CodeIndexStatus) => void
  } = {}
): Promise<CodeIndex> {
  const embedder = createEmbedder({ baseUrl: fake.openaiBaseUrl, model: options.model ?? 'fake-embed-1', apiKey: 'k' })
  const index = await openCodeIndex({
    root: t.root,
    dir: join(dataDir, 'idx'),
    parser,
    embedder: async () => (options.embeddings === false ? null : { embedder, baseUrl: fake.openaiBaseUrl }),
    embedBatch: options.batch ?? 64,
    annIndexMinFloats: options.annIndexMinFloats,
    batchFiles: options.batchFiles,
    onStatus: options.onStatus
  })
  opened.push(index)
  return index
}

const embeddedTexts = (from: number): string[] =>
  fake.requests
    .slice(from)
    .filter((r) => r.path === '/v1/embeddings')
    .flatMap((r) => r.body.input as string[])

async function setup(files: Record<string, string | Uint8Array> = sampleFiles): Promise<void> {
  t = await tempWorkspace(files)
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-idx-')))
}

describe('code index', () => {
  it('indexes the workspace (ignored, dependency, binary and huge files left out) and finds code by meaning and by words', async () => {
    await setup()
    const index = await open()
    await index.sync()
    const status = index.status()
    // 7 candidates scanned (the 4 sources, .modusignore, the png and the huge file); the png and the huge file are
    // skipped. Once ready, the counts are what is indexed, as the message says (#28 item 18: one truth).
    expect(status).toMatchObject({ state: 'ready', filesTotal: 5, filesDone: 5, errors: 0 })
    expect(status.message).toMatch(/^5 files, \d+ chunks indexed\.$/)
    expect(status.semantic).toMatchObject({ state: 'ready', model: 'fake-embed-1', dimension: 64 })
    expect(status.semantic.chunksEmbedded).toBe(status.chunks)

    const circle = await index.search('area of a circle', { limit: 5 })
    expect(circle.mode).toBe('hybrid')
    expect(circle.notes).toEqual([])
    expect(circle.hits[0].chunk).toMatchObject({ path: 'src/geometry/circle.ts', startLine: 1, endLine: 6 })
    expect(circle.hits[0].similarity).toBeGreaterThan(0)
    const paths = (await index.search('circle area huge secret', { limit: 20 })).hits.map((h) => h.chunk.path)
    expect(paths).not.toContain('node_modules/lib/index.js')
    expect(paths).not.toContain('secret/keys.ts')
    expect(paths).not.toContain('big.js')

    const user = await index.search('find user by email', { limit: 3, pathPrefix: 'src/db' })
    expect(user.hits.map((h) => h.chunk.path)).toEqual(['src/db/users.go'])
    expect(user.hits[0].lexicalRank).toBe(1)
  })

  it('a hit found by its vector alone comes with its chunk (the full-text search returned none)', async () => {
    await setup({
      'src/sum.ts': 'export const sum = (a: number, b: number) => a + b\n',
      'src/greet.ts': 'export function greet(name: string) {\n  return `hello ${name}`\n}\n'
    })
    const index = await open()
    await index.sync()
    // One-letter words are no full-text terms; the fake embeddings still point them at the file that uses them.
    const answer = await index.search('a b', { limit: 1 })
    expect(answer.mode).toBe('hybrid')
    expect(answer.hits).toHaveLength(1)
    expect(answer.hits[0].lexicalRank).toBeUndefined()
    expect(answer.hits[0].chunk).toMatchObject({ path: 'src/sum.ts', startLine: 1 })
    expect(answer.hits[0].chunk.text).toContain('a + b')
  })

  it('gives the vectors an ANN index once past its size, after the sync; search finds the same chunks and a reopen keeps it', async () => {
    await setup()
    const vectorIndexes = async () => {
      const db = await lancedb.connect(join(dataDir, 'idx', 'lance'))
      const table = await db.openTable('vectors')
      const found = (await table.listIndices()).filter((i) => i.columns.includes('vector'))
      table.close()
      db.close()
      return found.map((i) => `${i.indexType} ${i.indexUuid}`)
    }
    const queries = ['area of a circle', 'fetch json from a url', 'find user by email']
    const answers = async (index: CodeIndex) => {
      const found = []
      for (const query of queries) found.push((await index.search(query, { limit: 5 })).hits.map((h) => h.id))
      return found
    }
    const scanned = await open() // below the default size: the vectors are scanned
    await scanned.sync()
    await scanned.whenIdle()
    expect(await vectorIndexes()).toEqual([])
    const before = await answers(scanned)
    await scanned.close()

    const index = await open({ annIndexMinFloats: 64 })
    await index.sync()
    // The sync is done (and the index ready) before the ANN index is made, in a run of its own.
    expect(index.status().state).toBe('ready')
    await index.whenIdle()
    const made = await vectorIndexes()
    expect(made).toEqual([expect.stringMatching(/^IvfFlat /)])
    expect((await index.search('area of a circle', { limit: 5 })).mode).toBe('hybrid')
    expect(await answers(index)).toEqual(before)
    await index.close()

    const reopened = await open({ annIndexMinFloats: 64 })
    expect(await answers(reopened)).toEqual(before)
    await reopened.sync()
    await reopened.whenIdle()
    expect(await vectorIndexes()).toEqual(made) // kept, not made again
  })

  it('keeps the index across a restart: nothing is embedded again and search answers the same', async () => {
    await setup()
    const first = await open()
    await first.sync()
    const before = await first.search('fetch json from a url', { limit: 3 })
    await first.close()
    opened.length = 0

    const mark = fake.requests.length
    const again = await open()
    await again.sync()
    expect(embeddedTexts(mark)).toEqual([])
    expect(again.status()).toMatchObject({ state: 'ready', chunks: first.status().chunks })
    const after = await again.search('fetch json from a url', { limit: 3 })
    expect(after.hits.map((h) => h.id)).toEqual(before.hits.map((h) => h.id))
    expect(after.hits[0].chunk.path).toBe('src/http/client.py')
  })

  it('a kept index says the same number of files in its message and its counts, opened and after an update run', async () => {
    await setup()
    const first = await open({ embeddings: false })
    await first.sync()
    const files = first.status().filesTotal
    await first.close()
    opened.length = 0

    const again = await open({ embeddings: false })
    const agrees = (count: number) => {
      const status = again.status()
      expect(status.message).toBe(`${count} files, ${status.chunks} chunks indexed.`)
      expect(status).toMatchObject({ state: 'ready', filesDone: count, filesTotal: count })
    }
    agrees(files)
    // An update run checks only what changed; the ready status still counts the whole index.
    writeFileSync(join(t.root, 'src/added.ts'), 'export const added = 1\n')
    await again.sync()
    agrees(files + 1)
  })

  it('re-chunks and re-embeds only the file whose content changed', async () => {
    await setup()
    const index = await open()
    await index.sync()
    // Same content, new mtime: hashed, not re-indexed.
    utimesSync(join(t.root, 'src/db/users.go'), new Date(), new Date(Date.now() + 5000))
    t.write('src/geometry/circle.ts', 'export function perimeter(radius: number) {\n  return 2 * Math.PI * radius\n}\n')
    const mark = fake.requests.length
    await index.sync()
    expect(embeddedTexts(mark)).toEqual([
      'export function perimeter(radius: number) {\n  return 2 * Math.PI * radius\n}'
    ])
    const hit = (await index.search('perimeter of a radius', { limit: 1 })).hits[0]
    expect(hit.chunk).toMatchObject({ path: 'src/geometry/circle.ts', startLine: 1, endLine: 3 })
    expect(
      (await index.search('constructor radius area', { limit: 5 })).hits.map((h) => h.chunk.text).join()
    ).not.toContain('class Circle')

    // The watcher's path: one named file only.
    writeFileSync(join(t.root, 'src/http/client.py'), 'def post_form(url, fields):\n    return send(url, fields)\n')
    const mark2 = fake.requests.length
    await index.update(['src/http/client.py'])
    expect(embeddedTexts(mark2)).toEqual(['def post_form(url, fields):\n    return send(url, fields)'])
    rmSync(join(t.root, 'src/db/users.go'))
    await index.update(['src/db/users.go'])
    expect((await index.search('find user by email', { limit: 5 })).hits.map((h) => h.chunk.path)).not.toContain(
      'src/db/users.go'
    )
  })

  it('an embeddings endpoint failing mid-way leaves a usable lexical index and a clear status', async () => {
    await setup()
    fake.embeddings.failAfter = 1
    const index = await open({ batch: 1 })
    await index.sync()
    const status = index.status()
    expect(status.state).toBe('ready')
    expect(status.semantic.state).toBe('failed')
    expect(status.semantic.message).toMatch(/answered 500: fake embeddings: the endpoint is failing on purpose/)
    expect(status.message).toMatch(/Semantic search unavailable; lexical search works/)
    const result = await index.search('find user by email', { limit: 3 })
    expect(result.mode).toBe('lexical')
    expect(result.notes.join('\n')).toMatch(/Semantic search unavailable .*results are lexical only/)
    expect(result.hits[0].chunk.path).toBe('src/db/users.go')

    // Once the endpoint is back, the next run embeds what is missing.
    fake.embeddings.failAfter = null
    await index.sync()
    expect(index.status().semantic).toMatchObject({ state: 'ready' })
    expect(index.status().semantic.chunksEmbedded).toBe(index.status().chunks)
  })

  it('records the model and re-embeds everything when it changes; lexical only without embeddings', async () => {
    await setup()
    const first = await open({ model: 'fake-embed-1' })
    await first.sync()
    await first.close()
    opened.length = 0
    const mark = fake.requests.length
    const second = await open({ model: 'fake-embed-2' })
    await second.sync()
    expect(embeddedTexts(mark).length).toBe(second.status().chunks)
    expect(second.status().semantic).toMatchObject({ state: 'ready', model: 'fake-embed-2' })
    await second.close()
    opened.length = 0

    const lexicalOnly = await open({ embeddings: false })
    await lexicalOnly.sync()
    expect(lexicalOnly.status().semantic.state).toBe('off')
    const result = await lexicalOnly.search('circle radius', { limit: 2 })
    expect(result.mode).toBe('lexical')
    expect(result.hits[0].chunk.path).toBe('src/geometry/circle.ts')
  })

  it('a kept index answers in a fresh process at once, before any run, and says nothing is missing', async () => {
    await setup()
    const first = await open({ embeddings: false })
    await first.sync()
    await first.close()
    opened.length = 0
    const script = join(__dirname, 'fixtures', 'search-kept-index.ts')
    const out = execFileSync(
      process.execPath,
      [
        join(__dirname, '../../../node_modules/jiti/lib/jiti-cli.mjs'),
        script,
        t.root,
        join(dataDir, 'idx'),
        'find user by email'
      ],
      { encoding: 'utf8' }
    )
    const answer = JSON.parse(out.trim().split('\n').pop()!)
    console.log(`kept index: open to first answer in a fresh process ${answer.answeredMs.toFixed(0)} ms`)
    expect(answer.complete).toBe(true)
    expect(answer.notes).toEqual([])
    expect(answer.paths[0]).toBe('src/db/users.go')
    // Nothing ran in that process: the answer came from the tables as they were on disk.
    expect(answer.status).toMatchObject({
      state: 'ready',
      filesDone: 5,
      filesTotal: 5,
      message: expect.stringMatching(/^5 files, \d+ chunks indexed\.$/)
    })
  })

  it('before a first full run finishes, a search says its hits are incomplete', async () => {
    await setup()
    const index = await open()
    const early = await index.search('area of a circle', { limit: 3 })
    expect(early.complete).toBe(false)
    expect(early.mode).toBe('lexical')
    await index.sync()
    expect((await index.search('area of a circle', { limit: 3 })).complete).toBe(true)
  })

  it('a run over an unchanged tree reads no file: the stat decides, the content hash only when the stat changed', async () => {
    await setup()
    // A whole second, so that setting it again gives the very same stat.
    const file = join(t.root, 'src/db/users.go')
    const mtime = new Date(1_700_000_000_000)
    utimesSync(file, mtime, mtime)
    const index = await open({ embeddings: false })
    await index.sync()
    // Other content of the same size with the same modification time: a run that read the file would index it.
    const other = 'package db // SwappedBehindTheStat'.padEnd(statSync(file).size - 1, ' ') + '\n'
    writeFileSync(file, other)
    utimesSync(file, mtime, mtime)
    await index.sync()
    const swapped = async () =>
      (await index.search('SwappedBehindTheStat', { limit: 3 })).hits.filter((h) =>
        h.chunk.text.includes('SwappedBehindTheStat')
      )
    expect(await swapped()).toEqual([])
    // Once the stat differs the file is read, hashed and indexed again.
    utimesSync(file, mtime, new Date(mtime.getTime() + 5000))
    await index.sync()
    expect((await swapped()).map((h) => h.chunk.path)).toEqual(['src/db/users.go'])
  })

  it('a file replaced by another of the same size and modification time (a new inode) is read again', async () => {
    await setup()
    const file = join(t.root, 'src/db/users.go')
    const mtime = new Date(1_700_000_000_000)
    utimesSync(file, mtime, mtime)
    const index = await open({ embeddings: false })
    await index.sync()
    // As rsync or an editor's save-by-rename leave it: a new file put in place, stat otherwise identical.
    const other = 'package db // ReplacedByRename'.padEnd(statSync(file).size - 1, ' ') + '\n'
    writeFileSync(`${file}.new`, other)
    utimesSync(`${file}.new`, mtime, mtime)
    renameSync(`${file}.new`, file)
    await index.sync()
    const hits = (await index.search('ReplacedByRename', { limit: 3 })).hits
    expect(hits.map((h) => h.chunk.path)).toEqual(['src/db/users.go'])
  })

  it('chunks a killed run stored but never recorded are replaced, not kept beside the new ones', async () => {
    await setup()
    const first = await open({ embeddings: false })
    await first.sync()
    await first.close()
    opened.length = 0
    // As a process killed between a batch's add and its journal line leaves it: rows the bookkeeping does not know.
    writeFileSync(join(t.root, 'src/late.ts'), 'export function lateArrivalHandler() {}\n')
    const store = await openVectorStore(join(dataDir, 'idx', 'lance'))
    await store.addChunks([
      {
        id: 'src/late.ts#1-1',
        path: 'src/late.ts',
        startLine: 1,
        endLine: 1,
        text: 'export function lateArrivalHandler() {}'
      }
    ])
    store.close()
    const again = await open({ embeddings: false })
    await again.sync()
    expect((await again.search('lateArrivalHandler', { limit: 10 })).hits[0].chunk.path).toBe('src/late.ts')
    await again.close()
    opened.length = 0
    const stored = await openVectorStore(join(dataDir, 'idx', 'lance'))
    expect((await stored.chunksOf(['src/late.ts'])).map((c) => c.id)).toEqual(['src/late.ts#1-1'])
    stored.close()
  })

  it('a kept index reopened after watcher updates knows them: the next sync reads and parses nothing', async () => {
    await setup()
    const first = await open({ embeddings: false })
    await first.sync()
    writeFileSync(join(t.root, 'src/geometry/circle.ts'), 'export function circumference(r: number) {}\n')
    writeFileSync(join(t.root, 'src/added.ts'), 'export function addedLater() {}\n')
    rmSync(join(t.root, 'docs/guide.md'))
    await first.update(['src/geometry/circle.ts', 'src/added.ts', 'docs/guide.md'])
    const files = first.status().filesTotal
    await first.close()
    opened.length = 0

    const parsed: string[] = []
    const counting = {
      ...parser,
      definitions: (text: string, language: Parameters<typeof parser.definitions>[1]) => (
        parsed.push(text),
        parser.definitions(text, language)
      )
    }
    const again = await openCodeIndex({
      root: t.root,
      dir: join(dataDir, 'idx'),
      parser: counting,
      embedder: async () => null
    })
    opened.push(again)
    expect(again.status()).toMatchObject({ state: 'ready', filesTotal: files })
    await again.sync()
    expect(parsed).toEqual([])
    expect(again.status()).toMatchObject({ state: 'ready', filesTotal: files })
    const paths = (await again.search('circumference addedLater guide', { limit: 10 })).hits.map((h) => h.chunk.path)
    expect(paths).toContain('src/geometry/circle.ts')
    expect(paths).toContain('src/added.ts')
    expect(paths).not.toContain('docs/guide.md')
  })

  it('the first update after a reopen, before any sync, replaces the file: its new code is found, its old code is gone', async () => {
    await setup()
    const first = await open()
    await first.sync()
    expect((await first.search('Circle area radius', { limit: 3 })).mode).toBe('hybrid')
    await first.close()
    opened.length = 0

    const workerParser = createWorkerCodeParser()
    try {
      const again = await openCodeIndex({
        root: t.root,
        dir: join(dataDir, 'idx'),
        parser: workerParser,
        embedder: async () => ({
          embedder: createEmbedder({ baseUrl: fake.openaiBaseUrl, model: 'fake-embed-1', apiKey: 'k' }),
          baseUrl: fake.openaiBaseUrl
        })
      })
      opened.push(again)
      writeFileSync(join(t.root, 'src/geometry/circle.ts'), 'export function perimeterOfSquare(side: number) {}\n')
      // As the watcher does when it sees the edit, before its debounce ends: the worker starts and the file is parsed.
      await again.warmParser(['src/geometry/circle.ts'])
      expect(workerParser.state().languages).toEqual(['typescript'])
      await again.update(['src/geometry/circle.ts'])
      expect(workerParser.state().parses).toBe(1) // the update used the parse made ahead
      expect(again.status()).toMatchObject({ state: 'ready', semantic: { state: 'ready' } })
      const found = await again.search('perimeterOfSquare side', { limit: 5 })
      expect(found.mode).toBe('hybrid')
      expect(found.hits[0].chunk).toMatchObject({
        path: 'src/geometry/circle.ts',
        text: expect.stringContaining('perimeterOfSquare')
      })
      const old = await again.search('Circle radius', { limit: 10 })
      expect(old.hits.filter((h) => h.chunk.text.includes('class Circle'))).toEqual([])
      expect(workerParser.state()).toMatchObject({ inThread: false })
    } finally {
      workerParser.dispose()
    }
  })

  it('the watcher path leaves out a file that a full scan would not list (ignored, or in an excluded folder)', async () => {
    await setup({ ...sampleFiles, '.gitignore': 'generated/\n' })
    const index = await open({ embeddings: false })
    await index.sync()
    t.write('generated/api.ts', 'export function generatedWatched() {}\n')
    t.write('node_modules/lib/watched.js', 'function dependencyWatched() {}\n')
    t.write('secret/watched.ts', 'export function secretWatched() {}\n')
    t.write('src/watched.ts', 'export function keptWatched() {}\n')
    await index.update(['generated/api.ts', 'node_modules/lib/watched.js', 'secret/watched.ts', 'src/watched.ts'])
    const paths = (
      await index.search('generatedWatched dependencyWatched secretWatched keptWatched', { limit: 10 })
    ).hits.map((h) => h.chunk.path)
    expect(paths).toContain('src/watched.ts')
    for (const left of ['generated/api.ts', 'node_modules/lib/watched.js', 'secret/watched.ts'])
      expect(paths).not.toContain(left)
  })

  it('indexes dist/ when no .gitignore names it, and names the folders it skipped', async () => {
    await setup({
      'dist/index.js': 'export class YamlDocumentParser {}\n',
      'build/gen.ts': 'export function generatedThing() {}\n',
      '.gitignore': 'build/\n',
      'node_modules/dep/index.js': 'export class YamlDocumentParser {}\n'
    })
    const index = await open({ embeddings: false })
    await index.sync()
    const found = await index.search('YamlDocumentParser generatedThing', { limit: 5 })
    expect(found.hits.map((h) => h.chunk.path)).toEqual(['dist/index.js'])
    expect(found.skipped).toEqual([
      { path: 'build', reason: 'gitignore' },
      { path: 'node_modules', reason: 'built-in' }
    ])
  })

  it('never holds a file that a symlink brings in from outside the workspace', async () => {
    await setup()
    writeFileSync(join(t.outside, 'credentials.ts'), 'export const awsSecretKeyOutside = "hunter2"\n')
    symlinkSync(join(t.outside, 'credentials.ts'), join(t.root, 'src/credentials.ts'))
    symlinkSync(join(t.root, 'src/db/users.go'), join(t.root, 'src/users-alias.go'))
    const mark = fake.requests.length
    const index = await open()
    await index.sync()
    expect(embeddedTexts(mark).join('\n')).not.toContain('hunter2')
    const found = await index.search('awsSecretKeyOutside hunter2', { limit: 20 })
    expect(found.hits.map((h) => h.chunk.text).join('\n')).not.toContain('hunter2')
    expect(found.hits.map((h) => h.chunk.path)).not.toContain('src/credentials.ts')
    // A link that stays inside the workspace is indexed like any file.
    expect((await index.search('FindUserByEmail', { limit: 5 })).hits.map((h) => h.chunk.path)).toContain(
      'src/users-alias.go'
    )
    // The watcher's path, with a file swapped for a link after the first run.
    rmSync(join(t.root, 'docs/guide.md'))
    symlinkSync(join(t.outside, 'credentials.ts'), join(t.root, 'docs/guide.md'))
    await index.update(['docs/guide.md'])
    expect(
      (await index.search('awsSecretKeyOutside hunter2', { limit: 20 })).hits.map((h) => h.chunk.text).join('\n')
    ).not.toContain('hunter2')
  })

  for (const [damage, damaged] of [
    ['every file of the store is damaged', () => true],
    [
      'the data files behind a readable manifest are damaged',
      (file: string) => file.includes('/data/') && file.endsWith('.lance')
    ]
  ] as const)
    it(`starts over when ${damage}`, async () => {
      await setup()
      const first = await open()
      await first.sync()
      await first.close()
      opened.length = 0
      const files = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]))
      for (const file of files(join(dataDir, 'idx', 'lance'))) if (damaged(file)) writeFileSync(file, 'garbage')
      const again = await open()
      await again.sync()
      expect(again.status()).toMatchObject({ state: 'ready', errors: 0 })
      expect((await again.search('find user by email', { limit: 3 })).hits[0].chunk.path).toBe('src/db/users.go')
    })

  it('starts over when the store on disk was written by an older version with other columns', async () => {
    await setup()
    const db = await lancedb.connect(join(dataDir, 'idx', 'lance'))
    await db.createTable('chunks', [{ id: 'old#1', body: 'an older layout' }])
    db.close()
    writeFileSync(
      join(dataDir, 'idx', 'meta.json'),
      JSON.stringify({ version: 2, root: t.root, embedding: null, complete: true, skipped: [], files: {} })
    )
    const index = await open()
    await index.sync()
    expect(index.status()).toMatchObject({ state: 'ready', errors: 0 })
    expect((await index.search('find user by email', { limit: 3 })).hits[0].chunk.path).toBe('src/db/users.go')
  })

  it('leaves out what .gitignore files exclude, at the root and in sub-folders', async () => {
    await setup({
      '.gitignore': 'generated/\n*.log\n',
      'src/.gitignore': 'local-*.ts\n',
      'src/kept.ts': 'export function keptFunction() {}\n',
      'src/local-scratch.ts': 'export function scratchFunction() {}\n',
      'generated/api.ts': 'export function generatedFunction() {}\n',
      'debug.log': 'function loggedFunction() {}\n'
    })
    const index = await open({ embeddings: false })
    await index.sync()
    const paths = (
      await index.search('keptFunction scratchFunction generatedFunction loggedFunction', { limit: 20 })
    ).hits.map((h) => h.chunk.path)
    expect(paths).toContain('src/kept.ts')
    expect(paths).not.toContain('src/local-scratch.ts')
    expect(paths).not.toContain('generated/api.ts')
    expect(paths).not.toContain('debug.log')
  })

  it('cancels a run part-way: the status says so, search uses what is indexed, the next run finishes the rest', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [
        `src/m${String(i).padStart(3, '0')}.ts`,
        `export function moduleStep${i}() {\n  return ${i}\n}\n`
      ])
    )
    await setup(files)
    const index = await open({ embeddings: false })
    const run = index.sync()
    while (index.status().filesDone === 0) await new Promise((r) => setImmediate(r))
    index.cancel()
    await run
    const cancelled = index.status()
    expect(cancelled.state).toBe('cancelled')
    expect(cancelled.filesDone).toBeLessThan(400)
    expect(cancelled.message).toBe(
      `Indexing cancelled at ${cancelled.filesDone} of 400 files; search uses what is indexed.`
    )
    expect((await index.search('moduleStep0', { limit: 1 })).hits[0].chunk.path).toBe('src/m000.ts')
    await index.sync()
    expect(index.status()).toMatchObject({ state: 'ready', message: '400 files, 400 chunks indexed.' })
    expect((await index.search('moduleStep399', { limit: 1 })).hits[0].chunk.path).toBe('src/m399.ts')
  })

  it('a cancelled build is kept on disk: a new process answers from the part indexed and resumes with the rest only', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [
        `src/m${String(i).padStart(3, '0')}.ts`,
        `export function resumeStep${i}() {\n  return ${i}\n}\n`
      ])
    )
    await setup(files)
    const first = await open({ embeddings: false })
    const run = first.sync()
    while (first.status().filesDone < 250) await new Promise((r) => setImmediate(r))
    first.cancel()
    await run
    const done = first.status().filesDone
    expect(first.status().state).toBe('cancelled')
    expect(done).toBeLessThan(400)
    await first.close()
    opened.splice(opened.indexOf(first), 1)

    // The next process: the files indexed before the cancel are searchable before any run.
    const parsed: string[] = []
    const counting = {
      ...parser,
      definitions: (text: string, language: Parameters<typeof parser.definitions>[1]) => (
        parsed.push(text),
        parser.definitions(text, language)
      )
    }
    const second = await openCodeIndex({
      root: t.root,
      dir: join(dataDir, 'idx'),
      parser: counting,
      embedder: async () => null
    })
    opened.push(second)
    expect((await second.search('resumeStep0', { limit: 1 })).hits[0].chunk.path).toBe('src/m000.ts')
    await second.sync()
    expect(second.status()).toMatchObject({ state: 'ready', message: '400 files, 400 chunks indexed.' })
    // Only the files the cancelled run had not stored were read and parsed again.
    expect(parsed.length).toBeLessThanOrEqual(400 - done + 200)
    expect(parsed.length).toBeLessThan(400)
    expect((await second.search('resumeStep399', { limit: 1 })).hits[0].chunk.path).toBe('src/m399.ts')
  })

  it('cancels while embedding: the lexical index is whole, the vectors made are kept and the rest are made on resume', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `src/e${String(i).padStart(3, '0')}.ts`,
        `export function embedStep${i}() {\n  return 'marker${i}q'\n}\n`
      ])
    )
    await setup(files)
    const index = await open({ batch: 4 })
    const run = index.sync()
    // Past the first group of files (their vectors stored and recorded), inside the second.
    while (index.status().semantic.chunksEmbedded < 60) await new Promise((r) => setImmediate(r))
    index.cancel()
    await run
    const status = index.status()
    expect(status.state).toBe('cancelled')
    expect(status.semantic.state).toBe('pending')
    expect(status.semantic.chunksEmbedded).toBe(50)
    expect(status.message).toBe(
      `Embedding cancelled at ${status.semantic.chunksEmbedded} of 120 chunks; search uses what is indexed.`
    )
    // A file with no vector yet is still found by its words.
    expect((await index.search('marker119q', { limit: 5 })).hits.map((h) => h.chunk.path)).toContain('src/e119.ts')
    const from = fake.requests.length
    await index.sync()
    expect(index.status()).toMatchObject({
      state: 'ready',
      semantic: { state: 'ready', chunksEmbedded: 120, chunksTotal: 120 }
    })
    // Files whose vectors were stored before the cancel are not sent again.
    expect(embeddedTexts(from)).toHaveLength(70)
    const vectors = await (await lancedb.connect(join(dataDir, 'idx', 'lance'))).openTable('vectors')
    expect(await vectors.countRows()).toBe(120)
  })

  it('makes vectors while the build still chunks files: the first files are embedded before the last are stored', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        `src/v${String(i).padStart(3, '0')}.ts`,
        `export function vectorStep${i}() {\n  return 'early${i}z'\n}\n`
      ])
    )
    await setup(files)
    const seen: CodeIndexStatus[] = []
    const index = await open({ batchFiles: 10, onStatus: (status) => seen.push(status) })
    await index.sync()
    const whileIndexing = seen.filter((s) => s.state === 'indexing' && s.filesDone < s.filesTotal)
    expect(whileIndexing.some((s) => s.semantic.chunksEmbedded > 0)).toBe(true)
    expect(index.status()).toMatchObject({
      state: 'ready',
      semantic: { state: 'ready', chunksEmbedded: 300, chunksTotal: 300 }
    })
    // Every chunk has one vector, whichever pass made it, and search ranks by both.
    const vectors = await (await lancedb.connect(join(dataDir, 'idx', 'lance'))).openTable('vectors')
    expect(await vectors.countRows()).toBe(300)
    const found = await index.search('vectorStep299', { limit: 3 })
    expect(found.mode).toBe('hybrid')
    expect(found.hits[0].chunk.path).toBe('src/v299.ts')
  })

  it('cancelled during the build with embeddings on: the vectors stored are kept, the next run makes only the rest', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        `src/c${String(i).padStart(3, '0')}.ts`,
        `export function cancelStep${i}() {\n  return 'mid${i}y'\n}\n`
      ])
    )
    await setup(files)
    const index = await open({ batchFiles: 10 })
    const run = index.sync()
    while (index.status().semantic.chunksEmbedded === 0) await new Promise((r) => setImmediate(r))
    index.cancel()
    await run
    const cancelled = index.status()
    expect(cancelled.state).toBe('cancelled')
    const vectorRows = async () =>
      (await (await lancedb.connect(join(dataDir, 'idx', 'lance'))).openTable('vectors')).countRows()
    const kept = await vectorRows()
    expect(cancelled.semantic.chunksEmbedded).toBe(kept)
    const from = fake.requests.length
    await index.sync()
    expect(index.status()).toMatchObject({
      state: 'ready',
      semantic: { state: 'ready', chunksEmbedded: 300, chunksTotal: 300 }
    })
    expect(await vectorRows()).toBe(300)
    expect(embeddedTexts(from)).toHaveLength(300 - kept)
  })
})
