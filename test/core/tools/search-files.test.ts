import { afterEach, describe, expect, it } from 'vitest'
import { createSearchFilesExecutor } from '../../../src/main/core/tools/search-files'
import { findRipgrep } from '../../../src/main/core/workspace'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())
const rg = findRipgrep()

const TREE: Record<string, string> = {
  'src/app.ts': 'import x from "y"\nexport function createThing() {\n  return makeIt()\n}\n// TODO: more\n',
  'src/util/helpers.ts': 'export const a = 1\nexport function helperOne() {}\nfunction createOther() {}\n',
  'src/util/notes.md': 'createThing is documented here\n',
  'src/.hidden/secret.ts': 'createThing hidden\n',
  'node_modules/dep/index.js': 'function createThing() {}\n',
  'build/out.js': 'createThing()\n',
  '.gitignore': 'ignored.ts\n',
  'ignored.ts': 'createThing()\n',
  '.modusignore': 'private/\n',
  'private/p.ts': 'createThing()\n',
  'bin/data.bin': 'createThing\u0000\u0001',
  'README.md': 'line one\ncreateThing and createOther\nline three\n'
}

const builtin = createSearchFilesExecutor({ engine: 'builtin' })

describe('search_files (built-in engine, no ripgrep)', () => {
  it('finds matches with one line of context, grouped by file, skipping ignored, hidden, excluded and binary files', async () => {
    t = await tempWorkspace(TREE, { ripgrepPath: null })
    const text = textOf(
      await createSearchFilesExecutor().execute({ path: '.', regex: 'create(Thing|Other)' }, ctxFor(t.workspace))
    )
    expect(text).toBe(
      [
        'Found 5 results.',
        '',
        '# README.md',
        '1 | line one',
        '2 | createThing and createOther',
        '3 | line three',
        '----',
        '',
        '# build/out.js',
        '1 | createThing()',
        '----',
        '',
        '# src/app.ts',
        '1 | import x from "y"',
        '2 | export function createThing() {',
        '3 |   return makeIt()',
        '----',
        '',
        '# src/util/helpers.ts',
        '2 | export function helperOne() {}',
        '3 | function createOther() {}',
        '----',
        '',
        '# src/util/notes.md',
        '1 | createThing is documented here',
        '',
        'Skipped folders: node_modules/ (dependencies / version control, skipped by default); 1 folder excluded by .modusignore / .rooignore. Pass one as the path to search inside it.'
      ].join('\n')
    )
  })

  for (const engine of ['builtin', 'ripgrep'] as const)
    it.skipIf(engine === 'ripgrep' && !rg)(
      `searches dist/ when no .gitignore names it, and names a gitignored one as skipped (${engine})`,
      async () => {
        t = await tempWorkspace({
          'dist/index.js': 'export class YamlDocument {}\n',
          'src/a.ts': 'import { YamlDocument } from "../dist"\n'
        })
        const tool = createSearchFilesExecutor({ engine })
        const open = textOf(await tool.execute({ path: '.', regex: 'class YamlDocument' }, ctxFor(t.workspace)))
        expect(open).toBe('Found 1 result.\n\n# dist/index.js\n1 | export class YamlDocument {}')
        t.write('.gitignore', 'dist/\n')
        const ignored = textOf(await tool.execute({ path: '.', regex: 'class YamlDocument' }, ctxFor(t.workspace)))
        expect(ignored).toBe(
          'Found 0 results.\n\nSkipped folders: dist/ (named in .gitignore). Pass one as the path to search inside it.'
        )
        const inside = textOf(await tool.execute({ path: 'dist', regex: 'class YamlDocument' }, ctxFor(t.workspace)))
        expect(inside).toContain('# dist/index.js')
      }
    )

  it('filters by file glob and searches inside node_modules when pointed there', async () => {
    t = await tempWorkspace(TREE, { ripgrepPath: null })
    const ts = textOf(
      await builtin.execute({ path: 'src', regex: 'create', file_pattern: '*.ts' }, ctxFor(t.workspace))
    )
    expect(ts).toContain('# src/app.ts')
    expect(ts).not.toContain('notes.md')
    const nm = textOf(await builtin.execute({ path: 'node_modules', regex: 'createThing' }, ctxFor(t.workspace)))
    expect(nm).toContain('# node_modules/dep/index.js')
  })

  it('caps results with a "showing N of M+" note and cuts long lines', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `hit ${i} ${'z'.repeat(i === 3 ? 900 : 1)}`).join('\n')
    t = await tempWorkspace({ 'm.txt': many }, { ripgrepPath: null })
    const capped = createSearchFilesExecutor({ engine: 'builtin', maxResults: 5, contextLines: 0 })
    const text = textOf(await capped.execute({ path: '.', regex: '^hit' }, ctxFor(t.workspace)))
    expect(text).toMatch(/^Showing first 5 of 5\+ results/)
    expect(text).toContain('[…line cut at 500 characters]')
    expect(text.split('\n').filter((l) => /^\d+ \| hit/.test(l))).toHaveLength(5)
  })

  it('explains an invalid pattern', async () => {
    t = await tempWorkspace({ 'a.txt': 'a' }, { ripgrepPath: null })
    const out = await builtin.execute({ path: '.', regex: 'foo(' }, ctxFor(t.workspace))
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/invalid regular expression \/foo\(\//)
  })

  it('supports an inline (?i) flag as ripgrep does', async () => {
    t = await tempWorkspace({ 'a.txt': 'Hello\n' }, { ripgrepPath: null })
    expect(textOf(await builtin.execute({ path: '.', regex: '(?i)hello' }, ctxFor(t.workspace)))).toContain('1 | Hello')
  })
})

describe.skipIf(!rg)(
  rg ? 'search_files: ripgrep and built-in agree' : 'search_files: ripgrep not on PATH, skipped',
  () => {
    const patterns = [
      'create(Thing|Other)',
      '^export',
      'TODO',
      '\\bhelper\\w+',
      'line (one|three)$',
      '[0-9]+',
      'nothing-matches-this'
    ]
    for (const regex of patterns) {
      it(`same output for /${regex}/`, async () => {
        t = await tempWorkspace(TREE)
        const viaRg = textOf(
          await createSearchFilesExecutor({ engine: 'ripgrep' }).execute({ path: '.', regex }, ctxFor(t.workspace))
        )
        const viaJs = textOf(await builtin.execute({ path: '.', regex }, ctxFor(t.workspace)))
        expect(viaJs).toBe(viaRg)
      })
    }

    it('same output with a glob, a cap and a subdirectory', async () => {
      t = await tempWorkspace({
        ...TREE,
        'src/many.ts': Array.from({ length: 40 }, (_, i) => `const v${i} = ${i}`).join('\n')
      })
      const opts = { maxResults: 7 }
      const params = { path: 'src', regex: 'const', file_pattern: '*.ts' }
      const viaRg = textOf(
        await createSearchFilesExecutor({ ...opts, engine: 'ripgrep' }).execute(params, ctxFor(t.workspace))
      )
      const viaJs = textOf(
        await createSearchFilesExecutor({ ...opts, engine: 'builtin' }).execute(params, ctxFor(t.workspace))
      )
      expect(viaRg).toMatch(/^Showing first 7 of 7\+/)
      expect(viaJs).toBe(viaRg)
    })

    it('same results for long minified lines, multi-byte text, CRLF files and names with separators', async () => {
      const long = `${'é'.repeat(3000)}createThing${'x'.repeat(9000)}\n`
      t = await tempWorkspace({
        'min/a.js': `first\n${long}last createThing\n`,
        'min/b.js': `${'😀'.repeat(2500)} createThing\n`,
        'crlf.txt': 'one\r\ncreateThing two\r\nthree\r\n',
        'odd:name-1.txt': 'createThing: 12-34\n',
        'a-b/c.txt': 'createThing\n',
        'a/c.txt': 'createThing\n',
        // Past the first 64 kB the built-in engine reads in a second step: lines must still line up.
        'big/long.txt': `${'filler line\n'.repeat(9000)}createThing at the end\n`,
        'big/late-nul.bin': `${'text line\n'.repeat(9000)}createThing\n\u0000\n`
      })
      for (const maxResults of [3, Number.MAX_SAFE_INTEGER]) {
        const options = { regex: 'createThing', contextLines: 1, maxResults }
        const viaRg = await t.workspace.search('.', { ...options, engine: 'ripgrep' })
        const viaJs = await t.workspace.search('.', { ...options, engine: 'builtin' })
        expect(viaRg.files).toEqual(viaJs.files)
        expect([viaRg.matches, viaRg.truncated]).toEqual([viaJs.matches, viaJs.truncated])
      }
      const all = await t.workspace.search('.', {
        regex: 'createThing',
        contextLines: 0,
        maxResults: Number.MAX_SAFE_INTEGER,
        engine: 'ripgrep'
      })
      expect(all.files.map((f) => f.path)).toEqual([
        'a/c.txt',
        'a-b/c.txt',
        'big/long.txt',
        'crlf.txt',
        'min/a.js',
        'min/b.js',
        'odd:name-1.txt'
      ])
      expect(all.files.find((f) => f.path === 'big/long.txt')!.lines).toEqual([
        { line: 9001, text: 'createThing at the end', isMatch: true }
      ])
      expect(all.files.find((f) => f.path === 'min/a.js')!.lines[0].text).toHaveLength(2000)
    })

    it("same results when only the lines holding the pattern's literal are read (context, neighbours, file edges)", async () => {
      t = await tempWorkspace({
        'edges.ts': 'handle(a)\nhandle(b)\nother\n\nhandleX(c)\nx handle(d) handle(e)\nlast\nhandle(f)',
        'crlf.ts': 'one\r\nhandle(1)\r\ntwo\r\nthree\r\nhandle(2)\r\n',
        'empty-lines.ts': '\n\nhandle(z)\n\n\n',
        'wide.ts': `${'ü'.repeat(7000)} handle(w) ${'ü'.repeat(10)}\n${'ö'.repeat(9000)}\nend\n`,
        'near-miss.ts': 'handleX(1)\nhandle\n(handle)\n'
      })
      // Whole literals, literals inside a regex (the line is tested), and an anchored one.
      for (const regex of ['handle\\(', 'handle\\(\\w\\)', '^handle\\(', 'handle\\(.\\)$', 'x handle']) {
        for (const contextLines of [0, 2]) {
          for (const maxResults of [2, Number.MAX_SAFE_INTEGER]) {
            const options = { regex, contextLines, maxResults }
            const viaRg = await t.workspace.search('.', { ...options, engine: 'ripgrep' })
            const viaJs = await t.workspace.search('.', { ...options, engine: 'builtin' })
            expect(viaJs.files, `${options.regex} context ${contextLines} cap ${maxResults}`).toEqual(viaRg.files)
            expect([viaJs.matches, viaJs.truncated]).toEqual([viaRg.matches, viaRg.truncated])
          }
        }
      }
    })

    it('reports an invalid pattern from ripgrep too', async () => {
      t = await tempWorkspace({ 'a.txt': 'a' })
      const out = await createSearchFilesExecutor({ engine: 'ripgrep' }).execute(
        { path: '.', regex: 'foo(' },
        ctxFor(t.workspace)
      )
      expect(out.isError).toBe(true)
      expect(textOf(out)).toMatch(/invalid regular expression/)
    })
  }
)
