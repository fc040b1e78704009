import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createCore, type Core } from '../../../src/main/core/create-core'
import { createDeferredDisposals } from '../../support/deferred-disposals'

/** Settings → Hooks: the requests the section makes, through dispatch (zod-checked), against real files. */
const cores: Core[] = []
const disposals = createDeferredDisposals()
afterEach(() => {
  for (const core of cores.splice(0)) disposals.add(core.dispose())
})
afterAll(() => disposals.settle())

async function setUp() {
  const root = mkdtempSync(join(tmpdir(), 'modus-hook-settings-'))
  const home = join(root, 'home')
  const workspace = join(root, 'project')
  const dataDir = join(root, 'data')
  mkdirSync(home)
  mkdirSync(join(workspace, '.modus'), { recursive: true })
  const core = await createCore({
    dataDir,
    transport: 'web',
    version: 'test',
    env: { PATH: process.env.PATH, HOME: home }
  })
  cores.push(core)
  const request = async (channel: string, payload: unknown) => {
    const result = await core.handle(channel, payload)
    if (!result.ok) throw new Error(result.error.message)
    return result.value as never
  }
  return { root, home, workspace, dataDir, core, request, globalFile: join(dataDir, 'hooks.yaml') }
}

const bashGuard = { event: 'PreToolUse', matcher: 'Bash', command: '~/bin/guard.sh', timeout: 5 }

describe('Settings → Hooks', () => {
  it('lists the global and project hooks with the project trust state, and saves the global list', async () => {
    const { workspace, core, request, globalFile } = await setUp()
    writeFileSync(join(workspace, '.modus', 'hooks.yaml'), 'hooks:\n  Stop:\n    - command: ./keep-going.sh\n')

    // No folder open: only the user's own hooks.
    expect(await request('hooks:list', {})).toMatchObject({ global: { hooks: [], file: globalFile }, project: null })

    const opened = await core.handlers['workspace:open']({ path: workspace })
    let listing = await request('hooks:list', {})
    expect(listing).toMatchObject({
      project: {
        file: join(workspace, '.modus', 'hooks.yaml'),
        hooks: [{ event: 'Stop', command: './keep-going.sh' }],
        inForce: false,
        folderTrusted: false
      }
    })
    await core.handlers['workspace:trust']({ trusted: true, grantsHash: opened.grantsHash })
    listing = await request('hooks:list', {})
    expect(listing).toMatchObject({ project: { inForce: true, folderTrusted: true } })

    listing = await request('hooks:saveGlobal', {
      hooks: [bashGuard, { event: 'PostToolUse', matcher: 'Edit|Write', command: 'npx prettier --write .' }]
    })
    expect(listing).toMatchObject({ global: { hooks: [bashGuard, { event: 'PostToolUse' }], problems: [] } })
    // The file is the one the hook service reads, in its own shape.
    expect(parse(readFileSync(globalFile, 'utf8'))).toEqual({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', command: '~/bin/guard.sh', timeout: 5 }],
        PostToolUse: [{ matcher: 'Edit|Write', command: 'npx prettier --write .' }]
      }
    })
    // The project's file is never written from here.
    expect(readFileSync(join(workspace, '.modus', 'hooks.yaml'), 'utf8')).toBe(
      'hooks:\n  Stop:\n    - command: ./keep-going.sh\n'
    )

    await request('hooks:saveGlobal', { hooks: [] })
    expect(parse(readFileSync(globalFile, 'utf8'))).toEqual({ hooks: {} })
  })

  it('refuses a hook that cannot run as written, and keeps a hand-written file it cannot read', async () => {
    const { core, globalFile, dataDir } = await setUp()
    const save = (hooks: unknown[]) => core.handle('hooks:saveGlobal', { hooks })
    expect(await save([{ ...bashGuard, matcher: 'Bash(' }])).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_payload',
        message: expect.stringContaining('hooks.0.matcher: matcher "Bash(" is not a valid')
      }
    })
    expect(await save([{ ...bashGuard, command: '  ' }])).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('hooks.0.command') }
    })
    expect(await save([{ ...bashGuard, timeout: 601 }])).toMatchObject({ ok: false })
    expect(await save([{ ...bashGuard, event: 'SessionStart' }])).toMatchObject({ ok: false })

    mkdirSync(dataDir, { recursive: true })
    writeFileSync(globalFile, 'hooks: [not, a, map\n')
    const refused = await save([bashGuard])
    expect(refused).toMatchObject({ ok: false, error: { code: 'hooks_not_saved' } })
    expect(readFileSync(globalFile, 'utf8')).toBe('hooks: [not, a, map\n')
  })

  it("imports Claude Code's hooks from the project and the user's home only when asked, into the global file", async () => {
    const { home, workspace, core, request, globalFile } = await setUp()
    mkdirSync(join(home, '.claude'))
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/.claude/guard.py', timeout: 10 }] }],
          Notification: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }]
        }
      })
    )
    mkdirSync(join(workspace, '.claude'))
    writeFileSync(join(workspace, '.claude', 'settings.json'), '{ "hooks": ')
    await core.handlers['workspace:open']({ path: workspace })

    const preview: { sources: Array<Record<string, unknown>> } = await request('hooks:previewClaudeImport', {})
    expect(preview.sources).toEqual([
      expect.objectContaining({
        scope: 'project',
        file: join(workspace, '.claude', 'settings.json'),
        found: true,
        hooks: [],
        error: expect.stringContaining('not valid JSON')
      }),
      {
        scope: 'user',
        file: join(home, '.claude', 'settings.json'),
        found: true,
        hooks: [{ event: 'PreToolUse', matcher: 'Bash', command: '~/.claude/guard.py', timeout: 10 }],
        skipped: ['Notification notify-send done: Modus has no Notification event']
      }
    ])
    // Reading is not applying: nothing was written.
    expect(() => readFileSync(globalFile, 'utf8')).toThrow()

    const hooks = preview.sources[1].hooks
    const first: { added: number } = await request('hooks:importClaude', { hooks })
    expect(first.added).toBe(1)
    const again: { added: number; listing: { global: { hooks: unknown[] } } } = await request('hooks:importClaude', {
      hooks
    })
    expect(again.added).toBe(0)
    expect(again.listing.global.hooks).toEqual(hooks)
    expect(parse(readFileSync(globalFile, 'utf8'))).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Bash', command: '~/.claude/guard.py', timeout: 10 }] }
    })
  })
})
