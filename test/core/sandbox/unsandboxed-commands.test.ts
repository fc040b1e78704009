import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPolicyGate } from '../../../src/main/core/loop/policy-gate'
import { GlobalPolicy } from '../../../src/main/core/settings/settings-schema'
import { createCommandSandboxes } from '../../../src/main/core/sandbox/command-sandbox'
import { createSandboxService, type SandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import { createExecuteCommandExecutor } from '../../../src/main/core/tools/execute-command'
import type { ToolOutput } from '../../../src/main/core/ports/tool-types'
import type { ModeSandbox, ResolvedMode } from '../../../src/shared/modes/schema'
import { decide, type PolicyContext } from '../../../src/shared/policy/decide'
import { createHarness, type Harness } from '../terminal/harness'

const sandboxOf = (extra: Partial<ModeSandbox> = {}): ModeSandbox => ({ enabled: true, network: 'none', ...extra })
const modeOf = (over: Partial<ResolvedMode> = {}): ResolvedMode => ({
  slug: 'build',
  name: 'Build',
  roleDefinition: 'r',
  groups: ['read', 'edit', 'command'],
  origin: 'global',
  overridesBuiltIn: false,
  sandbox: sandboxOf({ unsandboxedCommands: ['docker *', 'touch *'] }),
  autoApprove: { command: true, sandboxedCommands: true },
  commandRules: { allow: ['docker ps', 'ls', 'touch *'], deny: ['docker rm *'] },
  ...over
})
const policy = (
  command: string,
  mode: ResolvedMode,
  extra: Record<string, unknown> = {},
  context: Partial<PolicyContext> = {}
) =>
  decide(
    { name: 'execute_command', params: { command, ...extra } },
    { mode, trusted: true, workspaceRoot: '/work/project', sandbox: { available: true }, ...context }
  )

describe('commands a sandboxed mode runs outside its sandbox: the approval item', () => {
  it('offers no "always allow" rule (it could never approve the command), while other asks still do', async () => {
    const gate = createPolicyGate({
      modes: () => [modeOf({ autoApprove: {} })],
      policy: () => GlobalPolicy.parse({}),
      isTrusted: () => true,
      sandboxStatus: async () => ({ available: true, platform: 'linux' })
    })
    const verdict = (command: string, extra: Record<string, unknown> = {}) =>
      gate.decide(
        { name: 'execute_command', params: { command, ...extra } },
        { taskId: 't', mode: 'build', workspace: '/work/project' }
      )
    const outside = await verdict('docker build .')
    expect(outside.decision).toBe('ask')
    expect(outside.suggestedRule).toBeUndefined()
    expect((await verdict('npm run lint', { outside_sandbox: true })).suggestedRule).toBeUndefined()
    expect((await verdict('npm run lint')).suggestedRule?.label).toBe('Always allow "npm run lint" in Build mode')
  })
})

describe('commands a sandboxed mode runs outside its sandbox: the policy', () => {
  it('always asks for a command an unsandboxed rule matches, naming the rule; allow rules and the toggle do not lift it', () => {
    const asked = policy('docker ps', modeOf())
    expect(asked).toMatchObject({ decision: 'ask', rule: `mode 'build' unsandboxed "docker *"` })
    expect(asked.reason).toBe(
      `This command runs outside the Build mode's sandbox because it matches the mode's unsandboxed command rule "docker *", so it always needs approval.`
    )
    expect(policy('cd sub && sudo docker build .', modeOf()).reason).toContain('"docker *"')
    // The same command without the rule runs sandboxed and is allowed.
    expect(policy('docker ps', modeOf({ sandbox: sandboxOf() })).decision).toBe('allow')
    expect(policy('ls', modeOf()).decision).toBe('allow')
  })

  it("an untrusted project's unsandboxed rules can only make a command ask: never allow, never lift a deny", () => {
    // A cloned repository's mode: everything unsandboxed, a deny rule. Untrusted, its allow rules and toggles are off.
    const project = modeOf({ origin: 'project', sandbox: sandboxOf({ unsandboxedCommands: ['*'] }) })
    const without = modeOf({ origin: 'project', sandbox: undefined })
    const untrusted = { trusted: false }
    for (const command of ['ls', 'docker ps', 'npm test', 'touch x', 'curl https://example.com']) {
      expect(policy(command, project, {}, untrusted)).toMatchObject({
        decision: 'ask',
        rule: `mode 'build' unsandboxed "*"`
      })
      // The same project mode with no sandbox at all runs the command unsandboxed too, and asks as well.
      expect(policy(command, without, {}, untrusted).decision).toBe('ask')
    }
    expect(policy('docker rm box', project, {}, untrusted).decision).toBe('deny')
  })

  it('asks when the model requests it for one call, and says so; deny rules still deny', () => {
    const asked = policy('ls', modeOf(), { outside_sandbox: true })
    expect(asked).toMatchObject({ decision: 'ask', rule: 'outside-sandbox-requested' })
    expect(asked.reason).toContain('because the model asked to run it outside the sandbox (outside_sandbox)')
    expect(policy('ls', modeOf(), { outside_sandbox: false }).decision).toBe('allow')
    expect(policy('docker rm -f web', modeOf()).decision).toBe('deny')
    expect(policy('docker rm -f web', modeOf(), { outside_sandbox: true }).decision).toBe('deny')
  })

  it('keeps the other reason a command asks for beside it', () => {
    const asked = policy('npm install', modeOf({ autoApprove: {} }), { outside_sandbox: true })
    expect(asked.decision).toBe('ask')
    expect(asked.reason).toContain('Also: No allow rule matches')
  })

  it('changes nothing for a mode without a sandbox, or where the sandbox cannot start (that reason is given)', () => {
    const plain = modeOf({ sandbox: undefined })
    expect(policy('docker ps', plain, { outside_sandbox: true }).decision).toBe('allow')
    expect(policy('docker ps', modeOf(), {}, { sandbox: { available: false, reason: 'no bwrap' } }).rule).toBe(
      'sandbox-unavailable'
    )
  })

  it('rejects an outside_sandbox that is not a boolean before the policy sees it', async () => {
    const { executeCommandTool } = await import('../../../src/shared/tools/execute-command')
    expect(executeCommandTool.params.safeParse({ command: 'ls', outside_sandbox: 'yes' }).success).toBe(false)
    expect(executeCommandTool.params.safeParse({ command: 'ls', outside_sandbox: true }).success).toBe(true)
  })
})

/** Real commands in the real sandbox through the execute_command executor, as the agent runs them once approved. */
describe('commands a sandboxed mode runs outside its sandbox: running them', () => {
  let h: Harness
  let sandbox: SandboxService
  let tempDir = ''
  let mode = modeOf()
  const executor = createExecuteCommandExecutor()

  beforeAll(async () => {
    h = await createHarness()
    tempDir = join(h.root, '..', 'system-tmp')
    await mkdir(tempDir)
    sandbox = createSandboxService({ tempDir, askNetwork: async () => ({ allow: false }) })
  }, 60_000)
  afterAll(async () => {
    await sandbox?.dispose()
    await h?.cleanup()
  })

  const commandSandbox = () =>
    createCommandSandboxes({
      sandbox,
      mode: (slug) => (slug === mode.slug ? mode : undefined),
      workspaceRoot: async () => h.root
    })
  const execute = (command: string, outside?: boolean): Promise<ToolOutput> => {
    const pick = commandSandbox()
    // The executor carries out the plan the policy decided with its verdict.
    const commandPlan = policy(command, mode, outside !== undefined ? { outside_sandbox: outside } : {}).run
    return executor.execute(
      { command, timeout: 30, ...(outside !== undefined ? { outside_sandbox: outside } : {}) },
      {
        taskId: 'outside',
        signal: new AbortController().signal,
        modelSupportsImages: false,
        terminal: h.service.forTask('outside', h.root),
        sandbox: (request) => pick({ taskId: 'outside', mode: mode.slug, workspace: h.root, commandPlan }, request)
      }
    )
  }
  const text = (output: ToolOutput): string =>
    output.content.map((block) => ('text' in block ? block.text : '')).join('')

  it('blocks a write outside the writable roots in the sandbox', async () => {
    mode = modeOf({ sandbox: sandboxOf() })
    const target = join(h.home, 'inside-sandbox.txt')
    const output = await execute(`echo no > ${target}`)
    expect(existsSync(target)).toBe(false)
    expect(text(output)).toContain('Sandbox: blocked a write to')
  }, 60_000)

  it('runs a command the model asked to run outside: the write outside the roots succeeds, and the result says why', async () => {
    mode = modeOf({ sandbox: sandboxOf() })
    const target = join(h.home, 'requested.txt')
    const output = await execute(`echo yes > ${target}`, true)
    expect(await readFile(target, 'utf8')).toBe('yes\n')
    expect(text(output).split('\n')[1]).toBe(
      'Sandbox: not used. It ran outside the sandbox after approval because the model asked to run it outside the sandbox (outside_sandbox).'
    )
  }, 60_000)

  it("runs a command the mode's unsandboxed rule matches outside the sandbox", async () => {
    mode = modeOf()
    const target = join(h.home, 'by-rule.txt')
    const output = await execute(`touch ${target}`)
    expect(existsSync(target)).toBe(true)
    expect(text(output)).toContain(`because it matches the mode's unsandboxed command rule "touch *"`)
  }, 60_000)

  it('keeps .vscode/ read-only where it exists and reports the blocked write; leaves no mount point for absent names', async () => {
    mode = modeOf({ sandbox: sandboxOf() })
    await mkdir(join(h.root, '.vscode'))
    await writeFile(join(h.root, '.vscode', 'settings.json'), '{}\n')
    const output = await execute(`echo '{"x":1}' > .vscode/settings.json; echo done`)
    expect(await readFile(join(h.root, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n')
    expect(text(output)).toContain(
      'Sandbox: blocked a write to .vscode/settings.json (a protected path, read-only in the sandbox)'
    )
    expect(existsSync(join(h.root, '.rooignore'))).toBe(false)
    expect(existsSync(join(h.root, '.modusignore'))).toBe(false)
  }, 60_000)
})
