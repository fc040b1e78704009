import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createCodeParser } from '../../../src/main/core/code-index/parser'
import { createListCodeDefinitionNamesExecutor } from '../../../src/main/core/tools/list-code-definition-names'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

const parser = createCodeParser()
const tool = createListCodeDefinitionNamesExecutor(parser)
const fixture = (name: string) => readFileSync(join(__dirname, '..', 'code-index', 'fixtures', name), 'utf8')
let t: TempWorkspace
afterEach(() => t?.cleanup())
afterAll(() => parser.dispose())

describe('list_code_definition_names', () => {
  it('lists a file in the compact form: # path, then start--end | first line', async () => {
    t = await tempWorkspace({ 'src/shapes.py': fixture('sample.py') })
    const text = textOf(await tool.execute({ path: 'src/shapes.py' }, ctxFor(t.workspace)))
    expect(text).toBe(
      [
        '# src/shapes.py',
        '4--11 | class Store:',
        '7--8 |     def __init__(self, root):',
        '10--11 |     def get(self, key):',
        '14--16 | def main():',
        '20--21 | def helper():'
      ].join('\n')
    )
  })

  it('lists the top-level files of a folder, names unsupported ones and hides ignored ones', async () => {
    t = await tempWorkspace({
      'src/a.go': fixture('sample.go'),
      'src/b.sh': fixture('sample.sh'),
      'src/notes.md': '# notes',
      'src/empty.ts': 'const x = 1\n',
      'src/secret.ts': 'export function hidden() {}\n',
      'src/deep/c.ts': 'export function deeper() {}\n',
      '.modusignore': 'src/secret.ts\n'
    })
    await t.workspace.reloadIgnoreRules()
    const text = textOf(await tool.execute({ path: 'src' }, ctxFor(t.workspace)))
    expect(text).toContain('# src/a.go\n3--5 | type Point struct {\n7--9 | type Shape interface {')
    expect(text).toContain('# src/b.sh\n4--6 | build() {\n8--11 | function deploy {')
    expect(text).toContain('No definitions found in: src/empty.ts')
    expect(text).toContain('Not parsed (language not supported): src/notes.md')
    expect(text).not.toContain('secret')
    expect(text).not.toContain('deeper')
  })

  it('refuses an ignored file and reports a missing path as an error', async () => {
    t = await tempWorkspace({ 'hidden.ts': 'function a() {}\n', '.modusignore': 'hidden.ts\n' })
    await t.workspace.reloadIgnoreRules()
    const ignored = await tool.execute({ path: 'hidden.ts' }, ctxFor(t.workspace))
    expect(ignored.isError).toBe(true)
    expect(textOf(ignored)).toMatch(/ignore/i)
    const missing = await tool.execute({ path: 'nope.ts' }, ctxFor(t.workspace))
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toMatch(/not found/i)
  })

  it('reports a missing path as not found whatever its extension, not as an unsupported language', async () => {
    t = await tempWorkspace({ 'a.ts': 'function a() {}\n' })
    for (const path of ['notes.md', 'Makefile', 'src/gone']) {
      const missing = await tool.execute({ path }, ctxFor(t.workspace))
      expect(missing.isError).toBe(true)
      expect(textOf(missing)).toBe(`Error: File not found: ${path}`)
    }
  })

  it('names a file in an unsupported language as such', async () => {
    t = await tempWorkspace({ 'data.json': '{"a": 1}' })
    expect(textOf(await tool.execute({ path: 'data.json' }, ctxFor(t.workspace)))).toBe(
      'data.json: not parsed, its language is not supported.'
    )
  })

  it('does not read a folder entry that links outside the workspace, and flags a linked file named directly', async () => {
    t = await tempWorkspace({ 'src/a.ts': 'export function insideOnly() {}\n' })
    writeFileSync(join(t.outside, 'secret.ts'), 'export function outsideSecret() { return "TOPSECRET" }\n')
    symlinkSync(join(t.outside, 'secret.ts'), join(t.root, 'src/link.ts'))
    const listing = await tool.execute({ path: 'src' }, ctxFor(t.workspace))
    expect(listing.isError).toBe(false)
    expect(textOf(listing)).toContain('# src/a.ts\n1--1 | export function insideOnly() {}')
    expect(textOf(listing)).not.toContain('TOPSECRET')
    expect(textOf(listing)).toContain(
      'Skipped src/link.ts: it links outside the workspace; name it on its own to read it.'
    )
    // Named on its own, the policy has seen the real path: listed with the outside note.
    expect(textOf(await tool.execute({ path: 'src/link.ts' }, ctxFor(t.workspace)))).toMatch(
      /^Definitions in .*secret\.ts \(outside the workspace\)/
    )
  })
})
