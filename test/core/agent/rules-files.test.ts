import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src/main/core/create-core'
import { loadRulesReport } from '../../../src/main/core/loop/rules-files'
import { startFakeProvider, systemPromptOf, type FakeProvider } from '../../support/fake-provider'

const SECRET = 'BEGIN OPENSSH PRIVATE KEY stolen-by-the-repo'

/** A cloned repository whose rule files are links to the user's secrets and to a huge tree. */
function plantedRepo(): { workspace: string; dataDir: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-rules-')))
  const home = join(root, 'home')
  mkdirSync(join(home, '.ssh'), { recursive: true })
  writeFileSync(join(home, '.ssh', 'id_rsa'), SECRET)
  const big = join(root, 'usr')
  for (let i = 0; i < 30; i++) {
    mkdirSync(join(big, `d${i}`), { recursive: true })
    writeFileSync(join(big, `d${i}`, 'f.txt'), `${SECRET} ${i}`)
  }
  const workspace = join(root, 'repo')
  mkdirSync(join(workspace, '.modus', 'rules'), { recursive: true })
  mkdirSync(join(workspace, '.roo'), { recursive: true })
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, 'AGENTS.md'))
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, '.roorules'))
  symlinkSync(big, join(workspace, '.roo', 'rules'))
  symlinkSync(join(home, '.ssh'), join(workspace, '.modus', 'rules', 'keys'))
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(workspace, '.modus', 'rules', 'b-key.md'))
  writeFileSync(join(workspace, '.modus', 'rules', 'a-style.md'), 'Use tabs.')
  writeFileSync(join(workspace, '.modus', 'rules', 'c-huge.md'), 'x'.repeat(5_000_000))
  return { workspace, dataDir: join(root, 'data') }
}

describe('rule files from an untrusted folder', () => {
  it('reads only files whose real path is inside the workspace, and reports what it skipped', async () => {
    const { workspace } = plantedRepo()
    const report = await loadRulesReport(workspace, 'code')
    expect(report.files.map((f) => f.path)).toEqual(['.modus/rules/a-style.md', '.modus/rules/c-huge.md'])
    expect(JSON.stringify(report.files)).not.toContain('stolen-by-the-repo')
    expect(report.files[1].content.length).toBeLessThan(20_100)
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { path: 'AGENTS.md', reason: 'links outside the workspace' },
        { path: '.roorules', reason: 'links outside the workspace' },
        { path: '.roo/rules', reason: 'links outside the workspace' },
        { path: '.modus/rules/b-key.md', reason: 'links outside the workspace' }
      ])
    )
  })

  it('caps all rule files together', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-rules-')))
    mkdirSync(join(root, '.modus', 'rules'), { recursive: true })
    for (let i = 0; i < 10; i++) writeFileSync(join(root, '.modus', 'rules', `r${i}.md`), `${i}`.repeat(19_000))
    const report = await loadRulesReport(root, 'code')
    expect(report.files.reduce((sum, f) => sum + f.content.length, 0)).toBeLessThanOrEqual(100_000)
    expect(report.skipped.map((s) => s.path)).toContain('.modus/rules/r9.md')
  })

  let core: Core | undefined
  let fake: FakeProvider | undefined
  afterEach(async () => {
    await core?.dispose()
    await fake?.close()
  })

  it('never sends a linked secret to the provider in the system prompt', async () => {
    const { workspace, dataDir } = plantedRepo()
    fake = await startFakeProvider({
      name: 'rules',
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }]
    })
    core = await createCore({ dataDir, transport: 'web', version: 'test', env: {} })
    await core.handlers['settings:saveProvider']({
      id: 'fake',
      kind: 'anthropic',
      label: 'Fake',
      baseUrl: fake.anthropicBaseUrl,
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-test'
    })
    await core.handlers['workspace:open']({ path: workspace })
    await core.handlers['task:start']({ text: 'hello', mode: 'code' })
    const deadline = Date.now() + 20_000
    while (fake.requests.filter((r) => r.protocol === 'anthropic').length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    const system = systemPromptOf(fake.requests.find((r) => r.protocol === 'anthropic')!)
    expect(system).toContain('Use tabs.')
    expect(system).not.toContain('stolen-by-the-repo')
  })
})
