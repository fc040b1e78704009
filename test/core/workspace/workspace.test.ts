import { afterEach, describe, expect, it } from 'vitest'
import { chmodSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { DEFAULT_EXCLUDED_DIRS, findRipgrep, WorkspaceError } from '../../../src/main/core/workspace'
import { tempWorkspace, type TempWorkspace } from './fixtures'

let t: TempWorkspace
afterEach(() => t?.cleanup())

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'ok'
  } catch (err) {
    if (err instanceof WorkspaceError) return err.code
    throw err
  }
}

describe('path resolution', () => {
  it('resolves inside paths to workspace-relative display paths', async () => {
    t = await tempWorkspace({ 'src/a.ts': 'x' })
    const p = await t.workspace.resolve('src/../src/a.ts')
    expect(p).toMatchObject({ display: 'src/a.ts', outsideWorkspace: false, viaSymlink: false, kind: 'file' })
  })

  it('flags `..` and absolute paths leaving the workspace without refusing them', async () => {
    t = await tempWorkspace()
    writeFileSync(join(t.outside, 'secret.txt'), 'outside text\n')
    const viaDots = await t.workspace.resolve('../outside/secret.txt')
    expect(viaDots).toMatchObject({ outsideWorkspace: true, kind: 'file', display: join(t.outside, 'secret.txt') })
    expect((await t.workspace.resolve(join(t.outside, 'secret.txt'))).outsideWorkspace).toBe(true)
    expect((await t.workspace.readText('../outside/secret.txt')).text).toBe('outside text\n')
  })

  it('flags a symlink inside the workspace that points outside, also for files not yet created', async () => {
    t = await tempWorkspace()
    symlinkSync(t.outside, join(t.root, 'escape'))
    writeFileSync(join(t.outside, 'x.txt'), 'x')
    expect(await t.workspace.resolve('escape/x.txt')).toMatchObject({ outsideWorkspace: true, viaSymlink: true })
    expect(await t.workspace.resolve('escape/new/file.txt')).toMatchObject({ outsideWorkspace: true, kind: 'missing' })
  })

  it('follows a symlink that stays inside and reports the real path', async () => {
    t = await tempWorkspace({ 'real/a.txt': 'a' })
    symlinkSync(join(t.root, 'real'), join(t.root, 'alias'))
    expect(await t.workspace.resolve('alias/a.txt')).toMatchObject({
      outsideWorkspace: false,
      viaSymlink: true,
      display: 'real/a.txt'
    })
  })

  it('marks protected paths with the policy predicate', async () => {
    t = await tempWorkspace(
      { '.roomodes': 'x', 'a.ts': 'y' },
      { isProtected: (rel) => rel === '.roomodes' || rel.startsWith('.modus/') }
    )
    expect((await t.workspace.resolve('.roomodes')).protected).toBe(true)
    expect((await t.workspace.resolve('.modus/modes.yaml')).protected).toBe(true)
    expect((await t.workspace.resolve('a.ts')).protected).toBe(false)
  })
})

describe('ignore files', () => {
  it('.modusignore and .rooignore block reads, writes and listings, also through a symlink', async () => {
    t = await tempWorkspace({
      '.modusignore': 'secrets/\n',
      '.rooignore': '*.key\n',
      'secrets/db.txt': 'pw',
      'id.key': 'k',
      'ok.txt': 'fine'
    })
    expect(await codeOf(t.workspace.readText('secrets/db.txt'))).toBe('ignored')
    expect(await codeOf(t.workspace.readText('id.key'))).toBe('ignored')
    expect(await codeOf(t.workspace.writeText('secrets/new.txt', 'x'))).toBe('ignored')
    symlinkSync(join(t.root, 'secrets'), join(t.root, 'innocent'))
    expect(await codeOf(t.workspace.readText('innocent/db.txt'))).toBe('ignored')
    const listed = await t.workspace.list('.', { recursive: true, limit: 100 })
    expect(listed.entries.map((e) => e.path)).not.toContain('secrets')
    expect(listed.entries.map((e) => e.path)).not.toContain('id.key')
    expect(listed.entries.map((e) => e.path)).toContain('ok.txt')
  })

  it('picks up edited ignore rules after reload', async () => {
    t = await tempWorkspace({ 'a.txt': 'a' })
    expect(await codeOf(t.workspace.readText('a.txt'))).toBe('ok')
    t.write('.modusignore', 'a.txt\n')
    await t.workspace.reloadIgnoreRules()
    expect(await codeOf(t.workspace.readText('a.txt'))).toBe('ignored')
  })
})

describe('reading text', () => {
  it('decodes UTF-8 with BOM, UTF-16 LE/BE and Latin-1, keeping line endings', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')])
    const be = Buffer.from(le)
    for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1], be[i]]
    t = await tempWorkspace({
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\nb\n')]),
      'le.txt': le,
      'be.txt': be,
      'latin.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])
    })
    expect(await t.workspace.readText('bom.txt')).toMatchObject({ text: 'a\nb\n', encoding: 'utf8bom', eol: 'lf' })
    expect(await t.workspace.readText('le.txt')).toMatchObject({
      text: 'héllo\r\nwörld\r\n',
      encoding: 'utf16le',
      eol: 'crlf'
    })
    expect(await t.workspace.readText('be.txt')).toMatchObject({ text: 'héllo\r\nwörld\r\n', encoding: 'utf16be' })
    expect(await t.workspace.readText('latin.txt')).toMatchObject({ text: 'café\n', encoding: 'latin1' })
  })

  it('refuses binaries, directories and missing files with distinct errors', async () => {
    t = await tempWorkspace({ 'img.bin': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]), 'dir/x': 'x' })
    expect(await codeOf(t.workspace.readText('img.bin'))).toBe('binary')
    expect(await codeOf(t.workspace.readText('dir'))).toBe('is_directory')
    expect(await codeOf(t.workspace.readText('nope.txt'))).toBe('not_found')
  })

  it('pages a large file from disk, counting its lines', async () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => `row ${i + 1} ${'x'.repeat(20)}`)
    t = await tempWorkspace({ 'big.log': lines.join('\n') + '\n' }, { maxTextBytes: 1024 })
    expect(statSync(join(t.root, 'big.log')).size).toBeGreaterThan(5_000_000)
    const range = await t.workspace.readLines('big.log', 150_000, 3)
    expect(range.totalLines).toBe(300_000)
    expect(range.lines).toEqual([lines[149_999], lines[150_000], lines[150_001]])
    expect(await codeOf(t.workspace.readText('big.log'))).toBe('too_large')
  })
})

describe('writing', () => {
  it('writes atomically, creating parents, leaving no temp files behind', async () => {
    t = await tempWorkspace()
    await t.workspace.writeText('deep/er/new.txt', 'hello\n')
    expect(readFileSync(join(t.root, 'deep/er/new.txt'), 'utf8')).toBe('hello\n')
    expect(readdirSync(join(t.root, 'deep/er'))).toEqual(['new.txt'])
  })

  it('keeps the BOM, UTF-16 encoding and the executable bit of an existing file', async () => {
    t = await tempWorkspace({
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\n')]),
      'u16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\n', 'utf16le')]),
      'run.sh': '#!/bin/sh\necho hi\n'
    })
    chmodSync(join(t.root, 'run.sh'), 0o755)
    await t.workspace.writeText('bom.txt', 'b\n')
    await t.workspace.writeText('u16.txt', 'ü\n')
    await t.workspace.writeText('run.sh', '#!/bin/sh\necho bye\n')
    expect([...readFileSync(join(t.root, 'bom.txt'))]).toEqual([0xef, 0xbb, 0xbf, 0x62, 0x0a])
    expect(readFileSync(join(t.root, 'u16.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ü\n', 'utf16le')])
    )
    expect(statSync(join(t.root, 'run.sh')).mode & 0o777).toBe(0o755)
  })

  it('writes through an inside symlink to its target and converts line endings when asked', async () => {
    t = await tempWorkspace({ 'real.txt': 'a\r\n' })
    symlinkSync(join(t.root, 'real.txt'), join(t.root, 'link.txt'))
    await t.workspace.writeText('link.txt', 'x\ny\n', { eol: 'crlf' })
    expect(readFileSync(join(t.root, 'real.txt'), 'utf8')).toBe('x\r\ny\r\n')
  })
})

describe('listing', () => {
  it('honours .gitignore (nested too), skips default excludes unless pointed into, sorts and truncates', async () => {
    t = await tempWorkspace({
      '.gitignore': 'dist-local/\n*.log\n',
      'src/index.ts': '',
      'src/.gitignore': 'generated.ts\n',
      'src/generated.ts': '',
      'app.log': '',
      'dist-local/x.js': '',
      'node_modules/pkg/index.js': '',
      'node_modules/pkg/node_modules/dep/index.js': '',
      'README.md': ''
    })
    const all = await t.workspace.list('.', { recursive: true, limit: 100 })
    expect(all.entries.map((e) => e.path + (e.isDirectory ? '/' : ''))).toEqual([
      '.gitignore',
      'README.md',
      'src/',
      'src/.gitignore',
      'src/index.ts'
    ])
    const inside = await t.workspace.list('node_modules/pkg', { recursive: true, limit: 100 })
    expect(inside.entries.map((e) => e.path)).toContain('node_modules/pkg/node_modules/dep/index.js')
    const top = await t.workspace.list('.', { recursive: false, limit: 2 })
    expect(top).toMatchObject({ truncated: true })
    expect(top.entries).toHaveLength(2)
  })
})

describe('listing beside ripgrep', () => {
  const rg = findRipgrep()

  it.skipIf(!rg)('lists the same files as rg --files given the same ignore files and excludes', async () => {
    t = await tempWorkspace({
      '.gitignore': 'dist-local/\n*.log\n!keep.log\n',
      '.modusignore': 'secrets/\n*.pem\n',
      '.hidden/config': '',
      'keep.log': '',
      'app.log': '',
      'dist-local/x.js': '',
      'secrets/a.txt': '',
      'id.pem': '',
      'node_modules/pkg/index.js': '',
      'src/.gitignore': 'generated/\n',
      'src/generated/a.ts': '',
      'src/lib/deep/er/index.ts': '',
      'src/lib/util.ts': '',
      'src/main.ts': '',
      'README.md': ''
    })
    const listed = await t.workspace.list('.', { recursive: true, limit: Number.MAX_SAFE_INTEGER })
    const files = listed.entries.filter((e) => !e.isDirectory).map((e) => e.path)
    const excludes = [...DEFAULT_EXCLUDED_DIRS].flatMap((name) => ['--glob', `!${name}`])
    const viaRg = execFileSync(
      rg!,
      ['--files', '--hidden', '--no-require-git', '--ignore-file', '.modusignore', ...excludes],
      { cwd: t.root, encoding: 'utf8' }
    )
    expect(files).toEqual(viaRg.split('\n').filter(Boolean).sort())
    expect(files).toContain('keep.log')
    expect(files).not.toContain('src/generated/a.ts')
  })

  it('a limit cuts where a one-by-one breadth-first walk would, although directories are read ahead', async () => {
    t = await tempWorkspace({ 'a/deep/1.txt': '', 'a/deep/2.txt': '', 'a/z.txt': '', 'b/c.txt': '', 'top.txt': '' })
    const cut = await t.workspace.list('.', { recursive: true, limit: 5 })
    expect(cut.truncated).toBe(true)
    expect(cut.entries.map((e) => e.path)).toEqual(['a', 'a/deep', 'a/z.txt', 'b', 'top.txt'])
  })
})

describe('protected paths by default', () => {
  it("uses the policy's isProtectedPath when no predicate is given", async () => {
    t = await tempWorkspace({ '.roomodes': 'x', 'src/a.ts': 'y' })
    expect((await t.workspace.resolve('.roomodes')).protected).toBe(true)
    expect((await t.workspace.resolve('.modus/modes.yaml')).protected).toBe(true)
    expect((await t.workspace.resolve('src/a.ts')).protected).toBe(false)
    const listed = await t.workspace.list('.', { recursive: false, limit: 10 })
    expect(listed.entries.find((e) => e.path === '.roomodes')?.protected).toBe(true)
  })
})
