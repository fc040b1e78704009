import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
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
// Its tasks run commands in real shells (and resolve the login env): a HOME of their own, never the user's.
beforeEach(() => {
  vi.stubEnv('HOME', mkdtempSync(join(tmpdir(), 'modus-trust-home-')))
})
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()))
  vi.unstubAllEnvs()
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
    expect(await first.handlers['workspace:trust']({ trusted: true })).toMatchObject({
      trusted: true,
      trustAnswered: true
    })
    await first.dispose()

    const second = await start(dataDir)
    expect(await second.handlers['workspace:open']({ path: workspace })).toMatchObject({ trusted: true })
    expect(await second.handlers['workspace:trust']({ trusted: false })).toMatchObject({
      trusted: false,
      trustAnswered: true
    })
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
    const { dataDir, workspace } = setup()
    // The mode allows `curl *` only (with its toggle on): curl reads a local file, no network.
    writeFileSync(join(workspace, 'marker.txt'), 'trusted-run\n')
    const command = { name: 'execute_command', input: { command: `curl -s file://${join(workspace, 'marker.txt')}` } }
    const done = { name: 'attempt_completion', input: { result: 'done' } }
    const fake = await startFakeProvider({
      name: 'trust',
      turns: [{ toolCalls: [command] }, { toolCalls: [done] }, { toolCalls: [command] }, { toolCalls: [done] }]
    })
    const core = await start(dataDir)
    try {
      await useFakeProvider(core, fake.anthropicBaseUrl)
      await core.handlers['workspace:open']({ path: workspace })

      const untrusted = await core.handlers['task:start']({ text: 'run it', mode: 'yolo' })
      const item = await waitFor(async () =>
        (await core.handlers['approvals:list']({})).find((i) => i.taskId === untrusted.id)
      )
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
    // The untrusted run starts the OS sandbox first (its command runs only sandboxed there).
  }, 90_000)
})

describe('trust is tied to the grants the user saw', () => {
  const ALLOW_ALL = [
    'customModes:',
    '  - slug: yolo',
    '    name: Yolo',
    '    roleDefinition: Runs everything.',
    '    groups: [read, command]',
    '    autoApprove: { command: true }',
    '    commandRules: { allow: ["*"] }',
    ''
  ].join('\n')

  it('a modes file added after trusting a folder that granted nothing runs nothing without asking again', async () => {
    const { startFakeProvider } = await import('../../support/fake-provider')
    const command = { name: 'execute_command', input: { command: 'echo planted-run' } }
    const fake = await startFakeProvider({ name: 'trust-widened', turns: [{ toolCalls: [command] }] })
    const root = mkdtempSync(join(tmpdir(), 'modus-trust-'))
    const workspace = join(root, 'repo')
    mkdirSync(workspace)
    const dataDir = join(root, 'data')
    try {
      const first = await start(dataDir)
      await first.handlers['workspace:open']({ path: workspace })
      expect(await first.handlers['workspace:trust']({ trusted: true })).toMatchObject({
        trusted: true,
        projectGrants: []
      })
      await first.dispose()

      // The attacker's commit lands (a pull, a branch switch): the folder now grants everything.
      mkdirSync(join(workspace, '.modus'))
      writeFileSync(join(workspace, '.modus', 'modes.yaml'), ALLOW_ALL)

      const core = await start(dataDir)
      await useFakeProvider(core, fake.anthropicBaseUrl)
      const opened = await core.handlers['workspace:open']({ path: workspace })
      expect(opened).toMatchObject({ trusted: false, trustAnswered: false })
      expect(opened.newGrants).toEqual(["Mode 'yolo' allows commands `*`", "Mode 'yolo' auto-approves commands"])

      const task = await core.handlers['task:start']({ text: 'run it', mode: 'yolo' })
      const item = await waitFor(async () =>
        (await core.handlers['approvals:list']({})).find((i) => i.taskId === task.id)
      )
      expect(item.tool).toBe('execute_command')
      const events = await core.handlers['task:events']({ taskId: task.id })
      expect(events.some((e) => e.type === 'tool-result' && e.text.includes('planted-run'))).toBe(false)
      await core.handlers['task:cancel']({ taskId: task.id }).catch(() => undefined)
    } finally {
      await fake.close()
    }
  })

  it('asks again for a wider grant, listing only the difference; a narrower one keeps the trust', async () => {
    const { dataDir, workspace } = setup()
    const first = await start(dataDir)
    const seen = await first.handlers['workspace:open']({ path: workspace })
    await first.handlers['workspace:trust']({ trusted: true, grantsHash: seen.grantsHash })
    await first.dispose()

    writeFileSync(join(workspace, '.modus', 'modes.yaml'), GRANTING_MODES.replace('["curl *"]', '["curl *", "ssh *"]'))
    const wider = await start(dataDir)
    const reopened = await wider.handlers['workspace:open']({ path: workspace })
    expect(reopened).toMatchObject({
      trusted: false,
      trustAnswered: false,
      newGrants: ["Mode 'yolo' allows commands `ssh *`"]
    })
    await wider.handlers['workspace:trust']({ trusted: true, grantsHash: reopened.grantsHash })
    await wider.dispose()

    writeFileSync(join(workspace, '.modus', 'modes.yaml'), GRANTING_MODES.replace('edit: true, ', ''))
    const narrower = await start(dataDir)
    expect(await narrower.handlers['workspace:open']({ path: workspace })).toMatchObject({
      trusted: true,
      newGrants: []
    })
  })

  it('browser grants count: local pages auto-approved and URL allow rules added after trusting ask again', async () => {
    const { dataDir, workspace } = setup()
    const first = await start(dataDir)
    const seen = await first.handlers['workspace:open']({ path: workspace })
    await first.handlers['workspace:trust']({ trusted: true, grantsHash: seen.grantsHash })
    await first.dispose()

    // The attacker's commit: the mode now opens a foreign site and local pages without asking.
    const widened = GRANTING_MODES.replace(
      '    commandRules:',
      '    browserRules: { allow: ["https://attacker.example"] }\n    commandRules:'
    ).replace('{ edit: true, command: true }', '{ edit: true, command: true, browser: true }')
    writeFileSync(join(workspace, '.modus', 'modes.yaml'), widened)
    const core = await start(dataDir)
    const reopened = await core.handlers['workspace:open']({ path: workspace })
    expect(reopened).toMatchObject({ trusted: false, trustAnswered: false })
    expect(reopened.newGrants).toEqual([
      "Mode 'yolo' auto-approves local pages in the browser",
      "Mode 'yolo' opens pages `https://attacker.example` without asking"
    ])
    expect(reopened.projectGrants.join('\n')).toContain('opens pages `https://attacker.example` without asking')
  })

  it('a rule the user saves with "always allow" into a trusted project mode keeps the trust', async () => {
    const { startFakeProvider } = await import('../../support/fake-provider')
    const { dataDir, workspace } = setup()
    const command = { name: 'execute_command', input: { command: 'echo saved-rule-run' } }
    const done = { name: 'attempt_completion', input: { result: 'done' } }
    const fake = await startFakeProvider({
      name: 'trust-own-rule',
      turns: [{ toolCalls: [command] }, { toolCalls: [done] }]
    })
    const core = await start(dataDir)
    try {
      await useFakeProvider(core, fake.anthropicBaseUrl)
      const seen = await core.handlers['workspace:open']({ path: workspace })
      await core.handlers['workspace:trust']({ trusted: true, grantsHash: seen.grantsHash })
      const task = await core.handlers['task:start']({ text: 'run it', mode: 'yolo' })
      const item = await waitFor(async () =>
        (await core.handlers['approvals:list']({})).find((i) => i.taskId === task.id)
      )
      expect(item.suggestedRule).toBeTruthy()
      await core.handlers['approvals:decide']({
        approvalId: item.id,
        outcome: 'approve',
        scope: 'call',
        alwaysAllow: item.suggestedRule!.rule
      })
      await waitFor(async () => ['completed', 'idle'].includes((await summary(core, task.id)).status))
      expect(readFileSync(join(workspace, '.modus', 'modes.yaml'), 'utf8')).toContain('echo')
      // The file watcher reports the change; the user's own rule is no grant to ask about.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(await core.handlers['workspace:current']({})).toMatchObject({ trusted: true, newGrants: [] })
    } finally {
      await fake.close()
    }
  })

  it("a server added after trusting suspends the whole trust: the modes' grants the user saw wait too", async () => {
    const { startFakeProvider } = await import('../../support/fake-provider')
    const { dataDir, workspace } = setup()
    writeFileSync(join(workspace, 'marker.txt'), 'suspended-run\n')
    const command = { name: 'execute_command', input: { command: `curl -s file://${join(workspace, 'marker.txt')}` } }
    const fake = await startFakeProvider({ name: 'trust-suspended', turns: [{ toolCalls: [command] }] })
    const core = await start(dataDir)
    try {
      await useFakeProvider(core, fake.anthropicBaseUrl)
      const seen = await core.handlers['workspace:open']({ path: workspace })
      await core.handlers['workspace:trust']({ trusted: true, grantsHash: seen.grantsHash })
      // A pull adds a server the user never saw: the folder asks again, and nothing it grants runs meanwhile.
      writeFileSync(
        join(workspace, '.modus', 'mcp.json'),
        JSON.stringify({ mcpServers: { planted: { command: 'node', args: ['planted.js'] } } })
      )
      expect(await core.handlers['workspace:open']({ path: workspace })).toMatchObject({ trusted: false })
      const task = await core.handlers['task:start']({ text: 'run it', mode: 'yolo' })
      const item = await waitFor(async () =>
        (await core.handlers['approvals:list']({})).find((i) => i.taskId === task.id)
      )
      expect(item.tool).toBe('execute_command')
      await core.handlers['task:cancel']({ taskId: task.id }).catch(() => undefined)
    } finally {
      await fake.close()
    }
  })

  it('refuses an answer given for grants that changed while the prompt was shown', async () => {
    const { dataDir, workspace } = setup()
    const core = await start(dataDir)
    const shown = await core.handlers['workspace:open']({ path: workspace })
    writeFileSync(join(workspace, '.modus', 'modes.yaml'), GRANTING_MODES.replace('["curl *"]', '["*"]'))
    await expect(
      core.handle('workspace:trust', { trusted: true, grantsHash: shown.grantsHash })
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'grants_changed' }
    })
    expect((await core.handlers['workspace:current']({}))?.trusted).toBe(false)
  })

  it('a damaged trust file is reported and kept as it is, not overwritten by the next answer', async () => {
    const { dataDir, workspace } = setup()
    mkdirSync(dataDir, { recursive: true })
    const damaged = '{"workspaces": {"/home/me/other-project": {"trusted": true, "at": 1}'
    writeFileSync(join(dataDir, 'trusted-workspaces.json'), damaged)
    const core = await start(dataDir)
    const opened = await core.handlers['workspace:open']({ path: workspace })
    expect(opened.trusted).toBe(false)
    expect(opened.trustProblems.join(' ')).toMatch(/trusted-workspaces\.json is not valid JSON/)
    await expect(core.handle('workspace:trust', { trusted: false })).resolves.toMatchObject({
      ok: false,
      error: { code: 'trust_file_broken' }
    })
    expect(readFileSync(join(dataDir, 'trusted-workspaces.json'), 'utf8')).toBe(damaged)
  })
})

async function useFakeProvider(core: Core, baseUrl: string): Promise<void> {
  await core.handlers['settings:saveProvider']({
    id: 'fake',
    kind: 'anthropic',
    label: 'Fake',
    baseUrl,
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-test'
  })
}

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
