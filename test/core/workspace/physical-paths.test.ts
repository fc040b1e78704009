import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkspaceError } from '../../../src/main/core/workspace'
import { tempWorkspace, type TempWorkspace } from './fixtures'

/** Paths an attacker writes to reach beyond the workspace, resolved on a real disk. */
let t: TempWorkspace | undefined
afterEach(() => t?.cleanup())

describe('`..` after a link is resolved as the OS does', () => {
  it('a/link/../x is the link target’s sibling, not a/x', async () => {
    t = await tempWorkspace({ 'a/x': 'inside\n' })
    mkdirSync(join(t.outside, 'deep'))
    writeFileSync(join(t.outside, 'x'), 'outside secret\n')
    symlinkSync(join(t.outside, 'deep'), join(t.root, 'a', 'link'))
    const p = await t.workspace.resolve('a/link/../x')
    expect(p.outsideWorkspace).toBe(true)
    expect(p.real).toBe(join(t.outside, 'x'))
    // What the tool reads is what the shell would read: the outside file, flagged.
    expect((await t.workspace.readText('a/link/../x')).text).toBe('outside secret\n')
    // The shell agrees (path.join would have normalised `..` lexically; the OS does not).
    expect(execFileSync('cat', ['a/link/../x'], { cwd: t.root, encoding: 'utf8' })).toBe('outside secret\n')
  })

  it('an inside link whose `..` climbs out leaves the workspace, also for a file not created yet', async () => {
    t = await tempWorkspace({ 'src/a.ts': 'a\n' })
    symlinkSync(t.outside, join(t.root, 'src', 'up'))
    const p = await t.workspace.resolve('src/up/../../new-file.txt')
    expect(p.outsideWorkspace).toBe(true)
    expect(p.kind).toBe('missing')
  })

  it('a link whose `..` comes back inside stays inside, and writes land where the OS puts them', async () => {
    t = await tempWorkspace({ 'pkg/deep/keep.txt': 'k\n' })
    symlinkSync(join(t.root, 'pkg', 'deep'), join(t.root, 'shortcut'))
    const p = await t.workspace.resolve('shortcut/../new.txt')
    expect(p.outsideWorkspace).toBe(false)
    expect(p.display).toBe('pkg/new.txt')
    await t.workspace.writeText('shortcut/../new.txt', 'written\n', {}, { stayInside: true })
    expect(readFileSync(join(t.root, 'pkg', 'new.txt'), 'utf8')).toBe('written\n')
    expect(existsSync(join(t.root, 'new.txt'))).toBe(false)
  })

  it('ignore rules see the physical path: a link and `..` cannot reach an ignored file unnoticed', async () => {
    t = await tempWorkspace({
      '.modusignore': 'secrets/\n',
      'secrets/deep/key.pem': 'KEY\n',
      'secrets/top.pem': 'TOP\n',
      'a/b.txt': 'b\n'
    })
    symlinkSync(join(t.root, 'secrets', 'deep'), join(t.root, 'a', 'door'))
    await t.workspace.reloadIgnoreRules()
    expect((await t.workspace.resolve('a/door/../top.pem')).ignored).toBe(true)
    await expect(t.workspace.readText('a/door/../top.pem')).rejects.toMatchObject({ code: 'ignored' })
  })
})

describe('a dangling link counts where its target would be', () => {
  it('a dangling link to an outside path is outside, and a write through it is refused when approved inside', async () => {
    t = await tempWorkspace({})
    symlinkSync(join(t.outside, 'not-yet', 'payload.sh'), join(t.root, 'innocent.txt'))
    const p = await t.workspace.resolve('innocent.txt')
    expect(p.outsideWorkspace).toBe(true)
    expect(p.real).toBe(join(t.outside, 'not-yet', 'payload.sh'))
    await expect(t.workspace.writeText('innocent.txt', 'x', {}, { stayInside: true })).rejects.toMatchObject({
      code: 'outside_workspace'
    })
    expect(existsSync(join(t.outside, 'not-yet'))).toBe(false)
  })

  it('a chain of links ending outside is outside; a dangling link inside stays inside', async () => {
    t = await tempWorkspace({})
    symlinkSync('/nonexistent-modus-target/x', join(t.root, 'hop2'))
    symlinkSync('hop2', join(t.root, 'hop1'))
    expect((await t.workspace.resolve('hop1')).outsideWorkspace).toBe(true)
    symlinkSync('later/file.txt', join(t.root, 'pending'))
    const inside = await t.workspace.resolve('pending')
    expect(inside.outsideWorkspace).toBe(false)
    expect(inside.display).toBe('later/file.txt')
  })

  it('a link loop is not followed forever', async () => {
    t = await tempWorkspace({})
    symlinkSync('loop-b', join(t.root, 'loop-a'))
    symlinkSync('loop-a', join(t.root, 'loop-b'))
    const p = await t.workspace.resolve('loop-a/x')
    expect(p.kind).toBe('missing')
  })
})

describe('control characters in a path are an invalid argument', () => {
  it('the workspace refuses them with a clear error, whatever the operation', async () => {
    t = await tempWorkspace({ 'a.txt': 'a\n' })
    for (const path of ['a.txt\u0000.png', 'a\u0007.txt', 'a.txt\n', '\u001b[2Ja.txt', 'a\u007f.txt', 'a\u0085.txt']) {
      const err = await t.workspace.resolve(path).catch((e: unknown) => e)
      expect(err, JSON.stringify(path)).toBeInstanceOf(WorkspaceError)
      expect((err as WorkspaceError).code).toBe('invalid_path')
      expect((err as WorkspaceError).message).toMatch(/control character/)
      await expect(t.workspace.writeText(path, 'x')).rejects.toMatchObject({ code: 'invalid_path' })
    }
  })

  it('every file tool refuses them at validation, before any disk access', async () => {
    const { getBuiltInTool } = await import('../../../src/shared/tools/catalog')
    const calls: Array<[string, Record<string, unknown>]> = [
      ['read_file', { path: 'a\u0000b' }],
      ['write_to_file', { path: 'x\u0001', content: '' }],
      ['apply_diff', { path: 'x\u001f', diff: 'd' }],
      ['edit', { file_path: 'x\u0000', old_string: 'a', new_string: 'b' }],
      ['list_files', { path: '.\u0000' }],
      ['search_files', { path: 'src\u0008', regex: 'x' }],
      ['list_code_definition_names', { path: 'src\u009b' }],
      ['execute_command', { command: 'ls', cwd: 'sub\u0000' }],
      ['apply_patch', { patch: '*** Begin Patch\n*** Add File: a\u0000b\n+x\n*** End Patch' }]
    ]
    for (const [name, params] of calls) {
      const tool = getBuiltInTool(name)
      expect(tool, name).toBeDefined()
      const parsed = tool!.params.safeParse(params)
      expect(parsed.success, name).toBe(false)
      expect(JSON.stringify(parsed.error?.issues), name).toMatch(/control character/)
    }
    expect(getBuiltInTool('read_file')!.params.safeParse({ path: 'src/ünïcode 文件.ts' }).success).toBe(true)
  })
})
