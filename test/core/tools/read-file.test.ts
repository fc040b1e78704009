import { afterEach, describe, expect, it } from 'vitest'
import { readFileExecutor } from '../../../src/main/core/tools/read-file'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())
const run = async (params: Record<string, unknown>, images = false) =>
  readFileExecutor.execute(params as any, ctxFor(t.workspace, images))

describe('read_file', () => {
  it('numbers lines and says nothing about truncation for a small file', async () => {
    t = await tempWorkspace({ 'a.ts': 'one\ntwo\n' })
    const out = await run({ path: 'a.ts' })
    expect(out.isError).toBe(false)
    expect(textOf(out)).toBe('File: a.ts\n1 | one\n2 | two')
  })

  it('slices with a 1-based offset and tells how to read on', async () => {
    t = await tempWorkspace({ 'big.txt': Array.from({ length: 30 }, (_, i) => `L${i + 1}`).join('\n') })
    const text = textOf(await run({ path: 'big.txt', offset: 10, limit: 5 }))
    expect(text).toContain('Showing lines 10-14 of 30 total lines')
    expect(text).toContain('offset=15 and limit=5')
    expect(text).toContain('10 | L10\n11 | L11')
    expect(text).not.toContain('L15')
  })

  it('applies the default 2000-line limit', async () => {
    t = await tempWorkspace({ 'huge.txt': Array.from({ length: 2500 }, (_, i) => `r${i}`).join('\n') })
    const text = textOf(await run({ path: 'huge.txt' }))
    expect(text).toContain('Showing lines 1-2000 of 2500')
    expect(text).toContain('offset=2001')
  })

  it('cuts very long lines and says which, how long they are, and how to get at the rest', async () => {
    t = await tempWorkspace({ 'min.js': 'x'.repeat(5000) })
    const text = textOf(await run({ path: 'min.js' }))
    expect(text.length).toBeLessThan(2700)
    expect(text).toMatch(/\n1 \| x{1997}\.\.\.\n\nNote: /)
    expect(text).toContain('line 1 has 5,000 characters')
  })

  it('a 10 MB line is named with its full length and a way to read on, not a bare "..."', async () => {
    t = await tempWorkspace({ 'data.json': `{"a":1}\n${'y'.repeat(10 * 1024 * 1024)}\n{"b":2}\n` })
    const text = textOf(await run({ path: 'data.json' }))
    expect(text).toContain('2 | ' + 'y'.repeat(1997) + '...')
    expect(text).toContain('3 | {"b":2}')
    expect(text).toContain('cut here to their first 1,997, ending in "...": line 2 has 10,485,760 characters.')
    expect(text).toContain('search_files')
    expect(text).toContain("sed -n '2p' data.json | cut -c 1998-6000")
  })

  it('returns the enclosing block in indentation mode', async () => {
    t = await tempWorkspace({
      'c.py': 'class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n\nx = 1\n'
    })
    const text = textOf(
      await run({ path: 'c.py', mode: 'indentation', indentation: { anchor_line: 3, max_levels: 1 } })
    )
    expect(text).toContain('2 |     def f(self):')
    expect(text).toContain('3 |         return 1')
    expect(text).toContain('Included ranges: 2-5')
    expect(text).not.toContain('x = 1')
  })

  it('gives clear errors for missing files, directories, binaries and bad offsets', async () => {
    t = await tempWorkspace({ 'dir/x.txt': 'x', 'blob.bin': Buffer.from([1, 0, 2, 3]), 'e.txt': 'a\n' })
    expect(textOf(await run({ path: 'nope.txt' }))).toMatch(/^Error: File not found: nope\.txt/)
    expect(textOf(await run({ path: 'dir' }))).toMatch(/is a directory.*list_files/)
    expect(textOf(await run({ path: 'blob.bin' }))).toMatch(/binary file/)
    const beyond = await run({ path: 'e.txt', offset: 9 })
    expect(beyond.isError).toBe(true)
    expect(textOf(beyond)).toContain('offset 9 is beyond file end (1 lines)')
    expect(textOf(await run({ path: 'e.txt', offset: 0 }))).toContain('offset must be a 1-indexed line number')
  })

  it('says a file is empty', async () => {
    t = await tempWorkspace({ 'empty.txt': '' })
    expect(textOf(await run({ path: 'empty.txt' }))).toBe('File: empty.txt\nNote: File is empty')
  })

  it('returns images as image blocks to models that accept them, and a notice otherwise', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
    t = await tempWorkspace({ 'pic.png': png })
    const withImages = await run({ path: 'pic.png' }, true)
    expect(withImages.content[1]).toEqual({ type: 'image', mediaType: 'image/png', dataBase64: png.toString('base64') })
    const without = await run({ path: 'pic.png' }, false)
    expect(without.content).toHaveLength(1)
    expect(textOf(without)).toMatch(/does not accept images/)
  })

  it('refuses ignored files and marks reads outside the workspace', async () => {
    t = await tempWorkspace({ '.rooignore': 'private.txt\n', 'private.txt': 'p' })
    expect(textOf(await run({ path: 'private.txt' }))).toMatch(/blocked by \.rooignore/)
    const { writeFileSync } = await import('node:fs')
    writeFileSync(`${t.outside}/o.txt`, 'o\n')
    expect(textOf(await run({ path: '../outside/o.txt' }))).toContain('(outside the workspace)')
  })
})

describe('read_file on a large file', () => {
  it('pages a multi-megabyte file without a whole-file read', async () => {
    const body = Array.from({ length: 200_000 }, (_, i) => `entry ${i + 1} ${'-'.repeat(30)}`).join('\n') + '\n'
    t = await tempWorkspace({ 'huge.log': body }, { maxTextBytes: 1_000_000 })
    const text = textOf(await run({ path: 'huge.log', offset: 199_999, limit: 10 }))
    expect(text).toContain('Showing lines 199999-200000 of 200000 total lines')
    expect(text).toContain('200000 | entry 200000')
  })
})

describe('read_file on special files', () => {
  it('refuses a FIFO instead of blocking on it', async () => {
    t = await tempWorkspace()
    const { execFileSync } = await import('node:child_process')
    execFileSync('mkfifo', [`${t.root}/pipe`])
    const out = await run({ path: 'pipe' })
    expect(out.isError).toBe(true)
    expect(textOf(out)).toMatch(/not a regular file/)
  })
})
