import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createModeStore, ModeStoreError, type ModesSnapshot } from '../../../src/main/core/modes/mode-store'
import { createModeHandlers } from '../../../src/main/core/modes/mode-handlers'
import { rooGlobalModesCandidates } from '../../../src/main/core/modes/mode-files'
import { detectModesFormat, parseModesText } from '../../../src/shared/modes/yaml'
import { dispatch } from '../../../src/shared/contract/dispatch'
import type { Handlers } from '../../../src/shared/contract'

let base: string
let dataDir: string
let workspace: string

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'modus-modes-'))
  dataDir = join(base, 'data')
  workspace = join(base, 'ws')
  mkdirSync(dataDir)
  mkdirSync(workspace)
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

const docsMode = {
  slug: 'docs',
  name: 'Docs',
  roleDefinition: 'Writes documentation',
  groups: ['read', ['edit', { fileRegex: '\\.md$', description: 'Markdown only' }]],
  autoApprove: { read: true, edit: true },
  commandRules: { allow: ['npm run docs'] }
}

describe('mode store', () => {
  it('lists the built-ins when no files exist', async () => {
    const snapshot = await createModeStore({ dataDir, workspaceRoot: workspace }).list()
    expect(snapshot.modes.map((m) => m.slug)).toEqual(['code', 'architect', 'ask', 'debug', 'orchestrator'])
    expect(snapshot.defaultSlug).toBe('code')
    expect(snapshot.problems).toEqual([])
  })

  it('saves project and global modes atomically; project wins on the same slug', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    const changes: ModesSnapshot[] = []
    store.onChange((snapshot) => changes.push(snapshot))
    await store.save({ ...docsMode, name: 'Global Docs' }, 'global')
    const snapshot = await store.save(docsMode, 'project')
    expect(snapshot.modes.find((m) => m.slug === 'docs')).toMatchObject({ name: 'Docs', origin: 'project' })
    expect(readFileSync(join(workspace, '.modus', 'modes.yaml'), 'utf8')).toMatch(/slug: docs/)
    expect(readFileSync(join(dataDir, 'modes.yaml'), 'utf8')).toMatch(/Global Docs/)
    expect(readdirSync(join(workspace, '.modus')).filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect(changes).toHaveLength(2)
    const reread = await createModeStore({ dataDir, workspaceRoot: workspace }).list()
    expect(reread.modes.find((m) => m.slug === 'docs')).toMatchObject({
      autoApprove: { read: true, edit: true },
      commandRules: { allow: ['npm run docs'] }
    })
  })

  it('refuses an invalid mode with precise messages and writes nothing', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    await expect(store.save({ ...docsMode, slug: 'no spaces', groups: ['read', 'read'] }, 'project')).rejects.toThrow(
      /slug: Slug must contain only letters, numbers and dashes\ngroups: Duplicate groups are not allowed: read/
    )
    expect(existsSync(join(workspace, '.modus', 'modes.yaml'))).toBe(false)
  })

  it('keeps a file that fails to parse untouched and reports its line', async () => {
    const path = join(workspace, '.modus', 'modes.yaml')
    mkdirSync(join(workspace, '.modus'))
    const broken = 'customModes:\n  - slug: a\n    name: [oops\n'
    writeFileSync(path, broken)
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    const snapshot = await store.list()
    expect(snapshot.problems).toHaveLength(1)
    expect(snapshot.problems[0]).toMatchObject({ file: path })
    expect(snapshot.problems[0].line).toBeGreaterThan(1)
    await expect(store.save(docsMode, 'project')).rejects.toMatchObject({ code: 'file_broken' })
    await expect(store.delete('a', 'project')).rejects.toBeInstanceOf(ModeStoreError)
    expect(readFileSync(path, 'utf8')).toBe(broken)
    expect((await store.save(docsMode, 'global')).modes.some((m) => m.slug === 'docs')).toBe(true)
  })

  it('reports schema problems in a file with their line, keeping the file', async () => {
    writeFileSync(
      join(dataDir, 'modes.yaml'),
      'customModes:\n  - slug: ok\n    name: Ok\n    roleDefinition: R\n    groups:\n      - read\n      - read\n'
    )
    const snapshot = await createModeStore({ dataDir }).list()
    expect(snapshot.problems).toEqual([
      {
        file: join(dataDir, 'modes.yaml'),
        message: 'customModes[0].groups: Duplicate groups are not allowed: read',
        line: 6
      }
    ])
  })

  it("reads Roo's .roomodes (YAML or JSON) as project modes with no auto-approve, and never writes it", async () => {
    const roomodes = JSON.stringify({ customModes: [{ ...docsMode, slug: 'roo-docs', source: 'project' }] })
    writeFileSync(join(workspace, '.roomodes'), roomodes)
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    const mode = (await store.list()).modes.find((m) => m.slug === 'roo-docs')
    expect(mode).toMatchObject({ origin: 'project' })
    expect(mode?.autoApprove).toBeUndefined()
    await store.save(docsMode, 'project')
    expect(readFileSync(join(workspace, '.roomodes'), 'utf8')).toBe(roomodes)
  })

  it('renames, deletes, and resets a built-in override', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    await store.save(docsMode, 'project')
    await store.save({ ...docsMode, slug: 'docs2' }, 'project', 'docs')
    let slugs = (await store.list()).modes.map((m) => m.slug)
    expect(slugs).toContain('docs2')
    expect(slugs).not.toContain('docs')
    await store.save({ ...docsMode, slug: 'other' }, 'project')
    await expect(store.save({ ...docsMode, slug: 'other' }, 'project', 'docs2')).rejects.toThrow(/already exists/)
    await store.delete('docs2', 'project')
    await expect(store.delete('docs2', 'project')).rejects.toMatchObject({ code: 'not_found' })
    await store.save({ ...docsMode, slug: 'code', name: 'My Code' }, 'global')
    expect((await store.list()).modes[0]).toMatchObject({ name: 'My Code', overridesBuiltIn: true })
    const reset = await store.resetBuiltIn('code')
    expect(reset.modes[0]).toMatchObject({ name: 'Code', origin: 'builtin' })
    slugs = reset.modes.map((m) => m.slug)
    expect(slugs).toContain('other')
  })

  it('exports to Modus YAML and to .roomodes, and imports both', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    await store.save(docsMode, 'project')
    const roo = await store.export('docs', 'roo')
    expect(roo.fileName).toBe('docs.roomodes')
    expect(roo.yaml).not.toMatch(/autoApprove|commandRules/)
    const modus = await store.export('docs', 'modus')
    expect(modus.yaml).toMatch(/autoApprove/)
    const fresh = createModeStore({ dataDir: join(base, 'data2') })
    mkdirSync(join(base, 'data2'))
    const fromRoo = await fresh.import(modus.yaml, 'global', 'roo')
    expect(fromRoo.imported).toEqual(['docs'])
    expect(fromRoo.snapshot.modes.find((m) => m.slug === 'docs')?.autoApprove).toBeUndefined()
    const fromModus = await fresh.import(modus.yaml, 'global', 'modus')
    expect(fromModus.snapshot.modes.find((m) => m.slug === 'docs')?.autoApprove).toEqual({ read: true, edit: true })
    await expect(fresh.import('customModes:\n  - slug: x\n', 'global', 'modus')).rejects.toThrow(/name/)
    await expect(fresh.export('nope', 'roo')).rejects.toMatchObject({ code: 'not_found' })
  })

  it('tells Roo files from Modus files by their content, whatever the file was called', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    await store.save({ ...docsMode, browserRules: { allow: ['https://docs.example.com'] } }, 'project')
    const modus = await store.export('docs', 'modus')
    expect(modus.yaml).toContain('https://docs.example.com')
    expect(detectModesFormat(modus.yaml)).toMatchObject({ format: 'modus' })
    const roo = await store.export('docs', 'roo')
    expect(roo.yaml).not.toMatch(/browserRules|autoApprove/)
    expect(detectModesFormat(roo.yaml)).toMatchObject({ format: 'roo', reason: expect.stringContaining('source') })
    const json = JSON.stringify({
      customModes: [{ slug: 'j', name: 'J', roleDefinition: 'R', groups: ['read'], autoApprove: { read: true } }]
    })
    expect(detectModesFormat(json)).toMatchObject({ format: 'modus' })
    expect(detectModesFormat('not: [a modes file')).toBeNull()

    const fresh = createModeStore({ dataDir: join(base, 'data3') })
    mkdirSync(join(base, 'data3'))
    // No format given: the content decides (Modus settings kept; a Roo export starts with none).
    const fromModus = await fresh.import(modus.yaml, 'global')
    expect(fromModus.snapshot.modes.find((m) => m.slug === 'docs')?.autoApprove).toEqual({ read: true, edit: true })
    const fromRoo = await fresh.import(roo.yaml.replace('slug: docs', 'slug: docs-roo'), 'global')
    expect(fromRoo.snapshot.modes.find((m) => m.slug === 'docs-roo')?.autoApprove).toBeUndefined()
  })

  it('imports a Roo mode with a group Modus lacks, and says which group was left out', async () => {
    const store = createModeStore({ dataDir })
    const text =
      'customModes:\n  - slug: fork\n    name: Fork\n    roleDefinition: R\n    groups: [read, subtasks, [edit, {fileRegex: "\\\\.md$"}], teleport]\n'
    const result = await store.import(text, 'global', 'roo')
    expect(result.imported).toEqual(['fork'])
    expect(result.snapshot.modes.find((m) => m.slug === 'fork')?.groups).toEqual([
      'read',
      ['edit', { fileRegex: '\\.md$' }]
    ])
    expect(result.warnings).toEqual([
      expect.stringMatching(/Mode "fork": Modus has no groups "subtasks", "teleport"; imported without them/)
    ])
    // Modus's own files name only Modus's groups: an unknown one is an error there, never skipped.
    await expect(store.import(text, 'global', 'modus')).rejects.toThrow(/groups/)
  })

  it('exports every mode of the user at once, built-ins as shipped left out', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    await expect(store.export(undefined, 'roo')).rejects.toMatchObject({ code: 'not_found' })
    await store.save(docsMode, 'project')
    await store.save({ ...docsMode, slug: 'notes', name: 'Notes' }, 'global')
    await store.save({ ...docsMode, slug: 'code', name: 'My Code' }, 'global')
    const all = await store.export(undefined, 'roo')
    expect(all.fileName).toBe('all-modes.roomodes')
    const parsed = parseModesText(all.yaml, 'roo')
    expect(parsed.ok && parsed.modes.map((m) => m.slug).sort()).toEqual(['code', 'docs', 'notes'])
    expect((await store.export(undefined, 'modus')).fileName).toBe('all-modes.modes.yaml')
  })

  it('needs a workspace for project modes', async () => {
    await expect(createModeStore({ dataDir }).save(docsMode, 'project')).rejects.toMatchObject({ code: 'no_workspace' })
  })

  it('tests a fileRegex against the workspace files (git ls-files, or a walk)', async () => {
    mkdirSync(join(workspace, 'docs'))
    mkdirSync(join(workspace, 'node_modules', 'x'), { recursive: true })
    writeFileSync(join(workspace, 'docs', 'a.md'), '#')
    writeFileSync(join(workspace, 'README.md'), '#')
    writeFileSync(join(workspace, 'index.ts'), '')
    writeFileSync(join(workspace, 'node_modules', 'x', 'b.md'), '')
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    const walked = await store.testRegex('\\.md$')
    expect(walked.matches.sort()).toEqual(['README.md', 'docs/a.md'])
    expect(walked.truncated).toBe(false)
    execFileSync('git', ['init', '-q'], { cwd: workspace })
    writeFileSync(join(workspace, '.gitignore'), 'node_modules\nREADME.md\n')
    const viaGit = await store.testRegex('\\.md$')
    expect(viaGit.matches).toEqual(['docs/a.md'])
    const limited = await createModeStore({ dataDir, workspaceRoot: workspace, maxScannedFiles: 1 }).testRegex('.')
    expect(limited.truncated).toBe(true)
    await expect(store.testRegex('([')).rejects.toMatchObject({ code: 'invalid_regex' })
  })

  it('notices modes files edited outside Modus', async () => {
    const store = createModeStore({ dataDir, workspaceRoot: workspace })
    const seen: ModesSnapshot[] = []
    store.onChange((snapshot) => seen.push(snapshot))
    const stop = store.watch()
    try {
      await store.list()
      writeFileSync(join(workspace, '.roomodes'), JSON.stringify({ customModes: [{ ...docsMode, slug: 'hand-made' }] }))
      await vi.waitFor(() => expect(seen.at(-1)?.modes.some((m) => m.slug === 'hand-made')).toBe(true), {
        timeout: 5000,
        interval: 50
      })
    } finally {
      stop()
    }
  })

  it('lists where Roo keeps its global custom_modes.yaml', () => {
    expect(rooGlobalModesCandidates('/home/u', 'linux')[0]).toMatch(
      /Code\/User\/globalStorage\/rooveterinaryinc\.roo-cline\/settings\/custom_modes\.yaml$/
    )
  })
})

describe('modes handlers through the contract', () => {
  it('validate payloads and return typed errors', async () => {
    const handlers = createModeHandlers(createModeStore({ dataDir, workspaceRoot: workspace })) as unknown as Handlers
    const saved = await dispatch(handlers, 'modes:save', { mode: docsMode, scope: 'project' })
    expect(saved.ok).toBe(true)
    const bad = await dispatch(handlers, 'modes:save', { mode: { ...docsMode, name: '' }, scope: 'project' })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_mode', message: 'name: Name must not be empty' } })
    const exported = await dispatch(handlers, 'modes:export', { slug: 'docs', format: 'roo' })
    expect(exported.ok && (exported.value as { yaml: string }).yaml).toMatch(/slug: docs/)
    const badScope = await dispatch(handlers, 'modes:delete', { slug: 'docs', scope: 'everywhere' })
    expect(badScope).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
    const tested = await dispatch(handlers, 'modes:testRegex', { fileRegex: '\\.yaml$' })
    expect(tested.ok && (tested.value as { matches: string[] }).matches).toEqual(['.modus/modes.yaml'])
  })
})
