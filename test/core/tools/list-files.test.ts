import { afterEach, describe, expect, it } from 'vitest'
import { createListFilesExecutor, listFilesExecutor } from '../../../src/main/core/tools/list-files'
import { tempWorkspace, type TempWorkspace } from '../workspace/fixtures'
import { ctxFor, textOf } from './ctx'

let t: TempWorkspace
afterEach(() => t?.cleanup())

describe('list_files', () => {
  it('lists the top level sorted with directories marked, hiding node_modules and gitignored files', async () => {
    t = await tempWorkspace({
      'b.ts': '',
      'a/x.ts': '',
      'node_modules/m/i.js': '',
      '.gitignore': 'tmp.txt\n',
      'tmp.txt': ''
    })
    const text = textOf(await listFilesExecutor.execute({ path: '.', recursive: false }, ctxFor(t.workspace)))
    expect(text).toBe('Contents of .:\n.gitignore\na/\nb.ts')
  })

  it('lists recursively and inside an excluded directory when pointed there', async () => {
    t = await tempWorkspace({ 'src/a/b.ts': '', 'node_modules/m/i.js': '' })
    expect(textOf(await listFilesExecutor.execute({ path: 'src', recursive: true }, ctxFor(t.workspace)))).toBe(
      'Contents of src (recursive):\nsrc/a/\nsrc/a/b.ts'
    )
    expect(
      textOf(await listFilesExecutor.execute({ path: 'node_modules', recursive: true }, ctxFor(t.workspace)))
    ).toContain('node_modules/m/i.js')
  })

  it('notes truncation at the limit, and errors clearly for files and missing paths', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, '']))
    t = await tempWorkspace(files)
    const small = createListFilesExecutor({ limit: 5 })
    const text = textOf(await small.execute({ path: '.', recursive: true }, ctxFor(t.workspace)))
    expect(text.split('\n').filter((l) => l.endsWith('.txt'))).toHaveLength(5)
    expect(text).toContain('(File list truncated at 5 entries')
    const file = await listFilesExecutor.execute({ path: 'f00.txt', recursive: false }, ctxFor(t.workspace))
    expect(file.isError).toBe(true)
    expect(textOf(file)).toMatch(/is a file, not a directory/)
    expect(textOf(await listFilesExecutor.execute({ path: 'none', recursive: false }, ctxFor(t.workspace)))).toMatch(
      /not found/
    )
  })

  it('says when a directory is empty', async () => {
    t = await tempWorkspace({ 'empty/.keep': '' })
    t.write('empty2/x', '')
    const { rmSync } = await import('node:fs')
    rmSync(`${t.root}/empty2/x`)
    expect(textOf(await listFilesExecutor.execute({ path: 'empty2', recursive: true }, ctxFor(t.workspace)))).toContain(
      'No files found.'
    )
  })
})
