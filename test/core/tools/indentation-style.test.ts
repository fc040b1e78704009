import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyDiffExecutor } from '../../../src/main/core/tools/apply-diff'
import { applyPatchExecutor } from '../../../src/main/core/tools/apply-patch'
import { editExecutor } from '../../../src/main/core/tools/edit'
import type { ProposalResult } from '../../../src/main/core/ports/tool-types'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

/**
 * Models write spaces; many files indent with tabs (and the reverse). Each edit tool must land the
 * block in the file's own style, and leave every other byte (BOM, CRLF, missing final newline,
 * wide characters) exactly as it was: checked on the bytes written to a real disk.
 */
let t: TempWorkspace
afterEach(() => t?.cleanup())

const BOM = '\uFEFF'
const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`
const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`

async function written(result: ProposalResult, file: string): Promise<string> {
  if (!result.ok) throw new Error(textOf(result.output))
  const staged = await t.workspace.changes.stage({ taskId: 't', toolName: 'x', change: result.changes[0] })
  await t.workspace.changes.accept(staged.id)
  return readFileSync(join(t.root, file), 'utf8')
}

const TAB_FILE = ['package main', '', 'func run() {', '\tif ok {', '\t\tlog("开始 🚀")', '\t}', '}'].join('\r\n')

describe('a block written with spaces lands in a tab-indented file as tabs, byte-exact', () => {
  const expected =
    BOM +
    [
      'package main',
      '',
      'func run() {',
      '\tif ok {',
      '\t\tlog("开始 🚀")',
      '\t\tfor i := range xs {',
      '\t\t\tuse(i) // 表',
      '\t\t}',
      '\t}',
      '}'
    ].join('\r\n')

  it('apply_diff', async () => {
    t = await tempWorkspace({ 'main.go': BOM + TAB_FILE })
    const diff = block(
      '    if ok {\n        log("开始 🚀")\n    }',
      '    if ok {\n        log("开始 🚀")\n        for i := range xs {\n            use(i) // 表\n        }\n    }'
    )
    expect(
      await written(await applyDiffExecutor.propose({ path: 'main.go', diff }, ctxFor(t.workspace)), 'main.go')
    ).toBe(expected)
  })

  it('edit', async () => {
    t = await tempWorkspace({ 'main.go': BOM + TAB_FILE })
    const result = await editExecutor.propose(
      {
        file_path: 'main.go',
        old_string: '    if ok {\n        log("开始 🚀")\n    }',
        new_string:
          '    if ok {\n        log("开始 🚀")\n        for i := range xs {\n            use(i) // 表\n        }\n    }',
        replace_all: false
      },
      ctxFor(t.workspace)
    )
    expect(await written(result, 'main.go')).toBe(expected)
  })

  it('apply_patch keeps the missing final newline, the BOM and CRLF', async () => {
    t = await tempWorkspace({ 'main.go': BOM + TAB_FILE })
    const body =
      '*** Update File: main.go\n@@\n     if ok {\n         log("开始 🚀")\n+        for i := range xs {\n+            use(i) // 表\n+        }\n     }'
    const out = await written(await applyPatchExecutor.propose({ patch: patch(body) }, ctxFor(t.workspace)), 'main.go')
    expect(out.endsWith('\r\n')).toBe(false)
    expect(out).toBe(expected)
  })

  it('also when the search sits at the top level and only the added lines are indented', async () => {
    t = await tempWorkspace({ 'a.go': 'func a() {\n}\n\tkeep\n' })
    const viaDiff = await applyDiffExecutor.propose(
      { path: 'a.go', diff: block('func a() {\n}', 'func a() {\n    return\n}') },
      ctxFor(t.workspace)
    )
    expect(await written(viaDiff, 'a.go')).toBe('func a() {\n\treturn\n}\n\tkeep\n')
    const viaEdit = await editExecutor.propose(
      {
        file_path: 'a.go',
        old_string: 'func a() {\n\treturn\n}',
        new_string: 'func a() {\n    x := 1\n    return\n}',
        replace_all: false
      },
      ctxFor(t.workspace)
    )
    expect(await written(viaEdit, 'a.go')).toBe('func a() {\n\tx := 1\n\treturn\n}\n\tkeep\n')
  })
})

describe('a block written with tabs lands in a space-indented file as its spaces', () => {
  it('two-space file: each tab level is two spaces; the rest of the file untouched', async () => {
    t = await tempWorkspace({ 'a.ts': 'function f() {\n  if (x) {\n    y()\n  }\n}' })
    const diff = block('\tif (x) {\n\t\ty()\n\t}', '\tif (x) {\n\t\ty()\n\t\tz()\n\t}')
    expect(await written(await applyDiffExecutor.propose({ path: 'a.ts', diff }, ctxFor(t.workspace)), 'a.ts')).toBe(
      'function f() {\n  if (x) {\n    y()\n    z()\n  }\n}'
    )
  })

  it('edit and apply_patch do the same', async () => {
    t = await tempWorkspace({ 'a.py': 'def f():\n    if x:\n        y()\n' })
    const viaEdit = await editExecutor.propose(
      {
        file_path: 'a.py',
        old_string: '\tif x:\n\t\ty()',
        new_string: '\tif x:\n\t\ty()\n\telse:\n\t\tz()',
        replace_all: false
      },
      ctxFor(t.workspace)
    )
    expect(await written(viaEdit, 'a.py')).toBe('def f():\n    if x:\n        y()\n    else:\n        z()\n')
    const viaPatch = await applyPatchExecutor.propose(
      { patch: patch('*** Update File: a.py\n@@\n \telse:\n-\t\tz()\n+\t\tz(1)\n+\t\treturn') },
      ctxFor(t.workspace)
    )
    expect(await written(viaPatch, 'a.py')).toBe(
      'def f():\n    if x:\n        y()\n    else:\n        z(1)\n        return\n'
    )
  })
})

describe('mixed indentation and alignment', () => {
  const MIXED = [
    '/**',
    ' * Tabs above.',
    ' */',
    'function a() {',
    '\tif (x) {',
    '\t\tcall()',
    '\t}',
    '}',
    'function b() {',
    '    if (y) {',
    '        call()',
    '    }',
    '}',
    ''
  ].join('\n')

  it('each region keeps its own kind; alignment spaces after the levels stay', async () => {
    t = await tempWorkspace({ 'm.js': MIXED })
    const diff = [
      block(
        '    if (x) {\n        call()\n    }',
        '    if (x) {\n        /**\n         * Doc.\n         */\n        call()\n    }'
      ),
      block('\tif (y) {\n\t\tcall()\n\t}', '\tif (y) {\n\t\tcall()\n\t\tmore()\n\t}')
    ].join('\n')
    const out = await written(await applyDiffExecutor.propose({ path: 'm.js', diff }, ctxFor(t.workspace)), 'm.js')
    expect(out).toBe(
      [
        '/**',
        ' * Tabs above.',
        ' */',
        'function a() {',
        '\tif (x) {',
        '\t\t/**',
        '\t\t * Doc.',
        '\t\t */',
        '\t\tcall()',
        '\t}',
        '}',
        'function b() {',
        '    if (y) {',
        '        call()',
        '        more()',
        '    }',
        '}',
        ''
      ].join('\n')
    )
  })

  it('an edit that already uses the file’s kind is kept exactly as written', async () => {
    t = await tempWorkspace({ 'm.js': MIXED })
    const result = await editExecutor.propose(
      {
        file_path: 'm.js',
        old_string: '\t\tcall()\n\t}',
        new_string: '\t\tcall()\n\t\tcall2()\n\t}',
        replace_all: false
      },
      ctxFor(t.workspace)
    )
    expect(await written(result, 'm.js')).toBe(MIXED.replace('\t\tcall()\n\t}', '\t\tcall()\n\t\tcall2()\n\t}'))
  })

  it('an indentation-blind edit matching several places asks for more context', async () => {
    t = await tempWorkspace({ 'm.js': MIXED })
    const result = await editExecutor.propose(
      { file_path: 'm.js', old_string: '  call()\n  }', new_string: '  go()\n  }', replace_all: false },
      ctxFor(t.workspace)
    )
    expect(!result.ok && textOf(result.output)).toMatch(/matches 2 places .* once indentation is ignored/)
  })
})
