import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src/main/core/create-core'
import { describeProjectGrants } from '../../../src/shared/modes/project-grants'

const GRANTING_MODES = [
  'customModes:',
  '  - slug: yolo',
  '    name: Yolo',
  '    roleDefinition: Runs everything.',
  '    groups: [read, edit, command]',
  '    autoApprove: { edit: true, command: true }',
  '    commandRules: { allow: ["curl *"], deny: ["rm -rf *"] }',
  ''
].join('\n')

function setup(): { dataDir: string; workspace: string } {
  const root = mkdtempSync(join(tmpdir(), 'modus-trust-'))
  const workspace = join(root, 'cloned-repo')
  mkdirSync(join(workspace, '.modus'), { recursive: true })
  writeFileSync(join(workspace, '.modus', 'modes.yaml'), GRANTING_MODES)
  return { dataDir: join(root, 'data'), workspace }
}

const cores: Core[] = []
const start = async (dataDir: string): Promise<Core> => {
  const core = await createCore({ dataDir, transport: 'web', version: 'test', env: {} })
  cores.push(core)
  return core
}
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()))
})

describe('workspace trust', () => {
  it('lists what a project grants and applies nothing of it until trusted', async () => {
    const { dataDir, workspace } = setup()
    const core = await start(dataDir)
    const opened = await core.handlers['workspace:open']({ path: workspace })
    expect(opened).toMatchObject({ trusted: false, trustAnswered: false })
    expect(opened.projectGrants).toEqual(["Mode 'yolo' auto-approves edits, commands; allows commands `curl *`"])
  })

  it('remembers the answer across restarts, per folder', async () => {
    const { dataDir, workspace } = setup()
    const first = await start(dataDir)
    await first.handlers['workspace:open']({ path: workspace })
    expect(await first.handlers['workspace:trust']({ trusted: true })).toMatchObject({ trusted: true, trustAnswered: true })
    await first.dispose()

    const second = await start(dataDir)
    expect(await second.handlers['workspace:open']({ path: workspace })).toMatchObject({ trusted: true })
    expect(await second.handlers['workspace:trust']({ trusted: false })).toMatchObject({ trusted: false, trustAnswered: true })
  })

  it('refuses a trust answer with no workspace open', async () => {
    const core = await start(setup().dataDir)
    await expect(core.handle('workspace:trust', { trusted: true })).resolves.toMatchObject({
      ok: false,
      error: { code: 'no_workspace' }
    })
  })

  it('describes only project modes, and only what they loosen', () => {
    expect(
      describeProjectGrants([
        { slug: 'g', origin: 'global', autoApprove: { command: true } },
        { slug: 'strict', origin: 'project', autoApprove: { maxRequests: 5 }, commandRules: { deny: ['git push'] } },
        { slug: 'reads', origin: 'project', autoApprove: { read: true, edit: false } }
      ])
    ).toEqual(["Mode 'reads' auto-approves reads"])
  })
})

describe('workspace trust in the policy', () => {
  it('a project mode auto-approves its commands only after the user trusts the workspace', async () => {
    const { startFakeProvider } = await import('../../support/fake-provider')
    const command = { name: 'execute_command', input: { command: 'echo trusted-run' } }
    const done = { name: 'attempt_completion', input: { result: 'done' } }
    const fake = await startFakeProvider({
      name: 'trust',
      turns: [{ toolCalls: [command] }, { toolCalls: [done] }, { toolCalls: [command] }, { toolCalls: [done] }]
    })
    const { dataDir, workspace } = setup()
    const core = await start(dataDir)
    try {
      await core.handlers['settings:saveProvider']({
        id: 'fake',
        kind: 'anthropic',
        label: 'Fake',
        baseUrl: fake.anthropicBaseUrl,
        model: 'claude-sonnet-4-5',
        apiKey: 'sk-test'
      })
      await core.handlers['workspace:open']({ path: workspace })

      const untrusted = await core.handlers['task:start']({ text: 'run it', mode: 'yolo' })
      const item = await waitFor(async () => (await core.handlers['approvals:list']({})).find((i) => i.taskId === untrusted.id))
      expect(item.tool).toBe('execute_command')
      await core.handlers['approvals:decide']({ approvalId: item.id, outcome: 'approve', scope: 'call' })
      await waitFor(async () => ['completed', 'idle'].includes((await summary(core, untrusted.id)).status))

      await core.handlers['workspace:trust']({ trusted: true })
      const trusted = await core.handlers['task:start']({ text: 'run it again', mode: 'yolo' })
      await waitFor(async () => ['completed', 'idle'].includes((await summary(core, trusted.id)).status))
      const events = await core.handlers['task:events']({ taskId: trusted.id })
      expect(events.some((e) => e.type === 'tool-result' && e.text.includes('trusted-run'))).toBe(true)
      expect(events.some((e) => e.type === 'approval-requested')).toBe(false)
    } finally {
      await fake.close()
    }
  })
})

async function summary(core: Core, taskId: string) {
  return (await core.handlers['task:list']({})).find((task) => task.id === taskId)!
}

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error('condition not reached')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
