import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCodeIndexService, type CodeIndexService } from '../../../src/main/core/code-index/code-index-service'
import { createCodeParser, type CodeParser } from '../../../src/main/core/code-index/parser'
import { createCodebaseSearchExecutor } from '../../../src/main/core/tools/codebase-search'
import { startFakeProvider, type FakeProvider } from '../../support/fake-provider'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

const parser = createCodeParser()
let fake: FakeProvider
let t: TempWorkspace
let dataDir: string
let service: CodeIndexService

beforeAll(async () => {
  fake = await startFakeProvider({ name: 'codebase_search' })
})
afterAll(async () => {
  await fake.close()
  parser.dispose()
})
afterEach(async () => {
  await service?.dispose()
  t?.cleanup()
  rmSync(dataDir, { recursive: true, force: true })
})

async function setup(files: Record<string, string>, watch = false, codeParser: CodeParser = parser) {
  t = await tempWorkspace(files)
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cbs-')))
  service = createCodeIndexService({
    dataDir,
    parser: codeParser,
    watch,
    embeddings: async () => ({
      config: { kind: 'openai-compatible', baseUrl: fake.openaiBaseUrl, model: 'fake-embed' }
    })
  })
  return createCodebaseSearchExecutor({ indexFor: service.forWorkspace, tokenBudget: 400 })
}

const files = {
  'src/auth/session.ts': 'export function refreshSessionToken(token: string) {\n  return renew(token)\n}\n',
  'src/billing/invoice.ts':
    'export function computeInvoiceTotal(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0)\n}\n',
  'src/billing/tax.ts': 'export function taxForInvoice(total: number) {\n  return total * 0.2\n}\n'
}

async function ready(root: string) {
  const index = await service.forWorkspace(root)
  await index.whenIdle()
  return index
}

describe('codebase_search', () => {
  it('returns path, line range, score and chunk text of the best matches, limited to a path when asked', async () => {
    const tool = await setup(files)
    await ready(t.root)
    const text = textOf(await tool.execute({ query: 'sum the invoice lines' }, ctxFor(t.workspace)))
    expect(text).toMatch(
      /^Query: sum the invoice lines — semantic \+ lexical ranking\n\nFile path: src\/billing\/invoice.ts\nScore: \d\.\d{3} \(semantic 0\.\d\d, lexical #1\)\nLines: 1-3\nCode Chunk:\nexport function computeInvoiceTotal/
    )
    const scoped = textOf(await tool.execute({ query: 'token', path: 'src/auth' }, ctxFor(t.workspace)))
    expect(scoped).toContain('File path: src/auth/session.ts')
    expect(scoped).not.toContain('src/billing')
  })

  it('stays within its token budget and says how many results were left out', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `src/m${i}.ts`,
        `export function invoiceStep${i}() {\n  return 'invoice step ${i} ${'pad '.repeat(40)}'\n}\n`
      ])
    )
    const tool = await setup(many)
    await ready(t.root)
    const text = textOf(await tool.execute({ query: 'invoice step' }, ctxFor(t.workspace)))
    expect(text.length).toBeLessThan(400 * 4 + 400)
    expect(text).toMatch(/\(\d+ more results left out to stay within the result budget/)
  })

  it('refuses a path outside the workspace and hides files the ignore file excludes', async () => {
    const tool = await setup({ ...files, '.modusignore': 'src/auth/\n' })
    await ready(t.root)
    const outside = await tool.execute({ query: 'x', path: '../' }, ctxFor(t.workspace))
    expect(outside.isError).toBe(true)
    expect(textOf(outside)).toMatch(/outside the workspace/)
    expect(textOf(await tool.execute({ query: 'refresh session token' }, ctxFor(t.workspace)))).not.toContain(
      'session.ts'
    )
  })

  it('says a path the ignore file excludes is not searched, rather than finding nothing', async () => {
    const tool = await setup({ ...files, '.modusignore': 'src/auth/\n' })
    await ready(t.root)
    const ignored = await tool.execute({ query: 'refresh session token', path: 'src/auth' }, ctxFor(t.workspace))
    expect(ignored.isError).toBe(true)
    expect(textOf(ignored)).toBe(
      "Error: src/auth is excluded by the workspace's ignore file (.modusignore / .rooignore): codebase_search does not search it."
    )
  })

  it('keeps the index current through the file watcher', async () => {
    const tool = await setup(files, true)
    const index = await ready(t.root)
    await new Promise((r) => setTimeout(r, 200))
    writeFileSync(
      join(t.root, 'src/billing/refund.ts'),
      'export function issueRefund(amount: number) {\n  return pay(-amount)\n}\n'
    )
    const deadline = Date.now() + 15_000
    let text = ''
    while (Date.now() < deadline) {
      await index.whenIdle()
      text = textOf(await tool.execute({ query: 'issue refund amount' }, ctxFor(t.workspace)))
      if (text.includes('src/billing/refund.ts')) break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(text).toContain('File path: src/billing/refund.ts')
  })

  it('readies the parser once the first sync ends and as soon as the watcher sees an edit, before the update parses it', async () => {
    const events: string[] = []
    const recording: CodeParser = {
      definitions: (text, language) => (events.push(`parse ${language.id}`), parser.definitions(text, language)),
      warm: (language) => void events.push(`warm ${language.id}`),
      dispose: () => undefined
    }
    const tool = await setup(files, true, recording)
    const index = await ready(t.root)
    await new Promise((r) => setTimeout(r, 200))
    expect(events.filter((e) => e.startsWith('warm'))).toEqual(['warm typescript'])
    events.length = 0
    writeFileSync(join(t.root, 'src/billing/ledger.py'), 'def post_ledger_entry(amount):\n    return amount\n')
    const deadline = Date.now() + 15_000
    let text = ''
    while (Date.now() < deadline) {
      await index.whenIdle()
      text = textOf(await tool.execute({ query: 'post ledger entry' }, ctxFor(t.workspace)))
      if (text.includes('src/billing/ledger.py')) break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(text).toContain('File path: src/billing/ledger.py')
    expect(events.indexOf('warm python')).toBeGreaterThanOrEqual(0)
    expect(events.indexOf('warm python')).toBeLessThan(events.indexOf('parse python'))
  })

  it('while the first build runs, answers from a text search of the workspace and says so', async () => {
    // The real parser, held on its first file: the build cannot finish before the query.
    let release = () => undefined as void
    const held = new Promise<void>((r) => (release = r))
    const slowParser: CodeParser = {
      definitions: async (text, language) => (await held, parser.definitions(text, language)),
      dispose: () => undefined
    }
    const tool = await setup(
      {
        ...files,
        'dist/bundle.js': 'function computeInvoiceTotal(lines) { return sum(lines) }\n',
        'node_modules/x/i.js': 'computeInvoiceTotal\n'
      },
      false,
      slowParser
    )
    const index = await service.forWorkspace(t.root)
    void index.sync()
    const text = textOf(await tool.execute({ query: 'where is the invoice total computed' }, ctxFor(t.workspace)))
    release()
    expect(text).toMatch(
      /^The code index is still being built \((\d+ of \d+ files indexed|scanning the workspace)\): these results come from a plain text search of the workspace for the words invoice, comput, total, files ranked by how many of them they hold, not by meaning\./
    )
    expect(text).toContain('Skipped folders: node_modules/ (dependencies / version control, skipped by default).')
    // Files holding every word come first.
    expect(text.indexOf('File path: src/billing/invoice.ts')).toBeLessThan(
      text.indexOf('File path: src/billing/tax.ts')
    )
    expect(text).toContain(
      'File path: src/billing/invoice.ts\n1 | export function computeInvoiceTotal(lines: number[]) {'
    )
    expect(text).toContain('File path: dist/bundle.js')
    expect(text).not.toContain('No results')
    await index.whenIdle()
    expect(textOf(await tool.execute({ query: 'where is the invoice total computed' }, ctxFor(t.workspace)))).toMatch(
      /^Skipped folders: node_modules\/ .*\nQuery: where is the invoice total computed — semantic \+ lexical ranking/
    )
  })

  it('starts with the workspace under the size limit; over it, waits and says why', async () => {
    await setup(files)
    const over = await service.startWithWorkspace(t.root, { autoStart: true, maxFiles: 2 })
    expect(over).toMatchObject({
      state: 'idle',
      message:
        'Not indexed yet: the workspace holds more than 2 files (settings: codeIndex). It is built on the first codebase_search or on Rebuild.'
    })
    expect((await service.status(t.root)).state).toBe('idle')
    await service.startWithWorkspace(t.root, { autoStart: true, maxFiles: 3 })
    const index = await service.forWorkspace(t.root)
    await index.whenIdle()
    expect(index.status()).toMatchObject({ state: 'ready', filesTotal: 3 })
    // A kept index opens whatever the limit: it answers from disk at once (in a new service, as in a new process).
    await service.dispose()
    service = createCodeIndexService({
      dataDir,
      parser,
      watch: false,
      embeddings: async () => ({
        config: { kind: 'openai-compatible', baseUrl: fake.openaiBaseUrl, model: 'fake-embed' }
      })
    })
    expect((await service.startWithWorkspace(t.root, { autoStart: false, maxFiles: 0 })).state).toBe('ready')
  })

  it('finds a name deep inside a minified bundle (one 60 kB line): the whole file is indexed, in size-cut chunks', async () => {
    const body = Array.from({ length: 1500 }, (_, i) => `function q${i}(a){return a+${i}}`).join(';')
    const bundle = `!function(){${body};function resolveBundledWidgetTheme(t){return t.dark?1:0}}();\n`
    const tool = await setup({ ...files, 'dist/app.min.js': bundle })
    await ready(t.root)
    const text = textOf(await tool.execute({ query: 'resolveBundledWidgetTheme' }, ctxFor(t.workspace)))
    // Before, the line was one chunk cut at 8,000 characters: the name, at 50 kB, was in no chunk.
    expect(text).toMatch(/^Query: .*\n\nFile path: dist\/app\.min\.js\nScore: .*lexical #1\)\nLines: 1-1\n/)
  })
})
