import { describe, expect, it } from 'vitest'
import { describeProjectGrants, projectGrantItems } from '../../../src/shared/modes/project-grants'
import { ModeConfig, validateMode, type ModeSandbox, type ResolvedMode } from '../../../src/shared/modes/schema'
import { modesToYaml } from '../../../src/shared/modes/yaml'
import { decide, type PolicyContext } from '../../../src/shared/policy/decide'
import { effectiveSandbox } from '../../../src/shared/policy/sandbox'

const ROOT = '/work/project'
const sandboxOn: ModeSandbox = { enabled: true, network: 'ask' }
const mode = (over: Partial<ResolvedMode> = {}): ResolvedMode => ({
  slug: 'build',
  name: 'Build',
  roleDefinition: 'r',
  groups: ['read', 'edit', 'command'],
  origin: 'global',
  overridesBuiltIn: false,
  sandbox: sandboxOn,
  autoApprove: { sandboxedCommands: true },
  ...over
})
const available = { available: true }
const configOf = (m: ResolvedMode) => {
  const { origin: _o, overridesBuiltIn: _b, ...config } = m
  return config
}
const ctx = (m: ResolvedMode, extra: Partial<PolicyContext> = {}): PolicyContext => ({
  mode: m,
  trusted: true,
  workspaceRoot: ROOT,
  sandbox: available,
  ...extra
})
const run = (command: string, c: PolicyContext) => decide({ name: 'execute_command', params: { command } }, c)

describe('the sandbox setting of a mode', () => {
  it('validates writable roots, the network policy and domains', () => {
    const ok = validateMode({
      ...configOf(mode()),
      sandbox: {
        enabled: true,
        writableRoots: ['.', '/var/tmp/build'],
        network: 'allow-list',
        allowedDomains: ['registry.npmjs.org', '*.example.com:443', '127.0.0.1']
      }
    })
    expect(ok.ok).toBe(true)
    const bad = validateMode({
      ...configOf(mode()),
      sandbox: { enabled: true, network: 'sometimes', allowedDomains: ['https://x.org/'] }
    })
    expect(bad).toMatchObject({ ok: false })
    if (!bad.ok) {
      expect(bad.errors.some((e) => e.startsWith('sandbox.network:'))).toBe(true)
      expect(bad.errors).toContain(
        'sandbox.allowedDomains[0]: A domain must be a host name (registry.npmjs.org), *.example.com or an IP, optionally with :port'
      )
    }
    expect(ModeConfig.parse({ ...configOf(mode()), sandbox: { enabled: true } }).sandbox).toEqual({
      enabled: true,
      network: 'none'
    })
  })

  it('is kept in .modus/modes.yaml and dropped from a Roo export', () => {
    const config = configOf(mode())
    expect(modesToYaml([config])).toContain('sandbox:\n      enabled: true\n      network: ask')
    expect(modesToYaml([config], 'roo')).not.toContain('sandbox')
  })

  it('waits for trust before a project mode widens it; its sandbox itself applies at once', () => {
    const project = mode({
      origin: 'project',
      sandbox: { enabled: true, network: 'allow-list', writableRoots: ['/'], allowedDomains: ['evil.example'] }
    })
    expect(effectiveSandbox(project, false)).toEqual({
      writableRoots: undefined,
      network: 'allow-list',
      allowedDomains: []
    })
    expect(effectiveSandbox(project, true)).toEqual({
      writableRoots: ['/'],
      network: 'allow-list',
      allowedDomains: ['evil.example']
    })
    expect(projectGrantItems([project])).toEqual([
      "Mode 'build' auto-approves sandboxed commands no rule matches",
      "Mode 'build' lets sandboxed commands reach `evil.example`",
      "Mode 'build' lets sandboxed commands write `/`"
    ])
    expect(describeProjectGrants([project])[0]).toContain('lets sandboxed commands reach `evil.example`')
  })
})

describe('commands of a sandboxed mode', () => {
  it('are auto-approved when no rule matches and the toggle is on', () => {
    expect(run('npm test', ctx(mode()))).toMatchObject({ decision: 'allow', rule: 'auto-approve.sandboxedCommands' })
    expect(run('npm test', ctx(mode())).reason).toContain(
      'writes only in the workspace and the temp dir, network asks for unlisted domains'
    )
    expect(run('npm test', ctx(mode({ autoApprove: {} })))).toMatchObject({ decision: 'ask', rule: 'no-matching-rule' })
  })

  it('still deny by deny rule, and ask for ask rules, always-ask constructs, paths that ask and sudo', () => {
    const ruled = mode({ commandRules: { deny: ['git push *'], ask: ['npm publish *'] } })
    expect(run('git push origin main', ctx(ruled)).decision).toBe('deny')
    expect(run('npm publish --tag x', ctx(ruled)).decision).toBe('ask')
    expect(run('bash -c "make"', ctx(mode()))).toMatchObject({ decision: 'ask', rule: 'always-ask' })
    expect(run('cp a.txt ~/.ssh/authorized_keys', ctx(mode())).decision).toBe('ask')
    expect(run('echo x > .git/config', ctx(mode())).decision).toBe('ask')
    expect(run('sudo make install', ctx(mode())).decision).toBe('ask')
  })

  it('are not auto-approved by the toggle in an untrusted project mode', () => {
    expect(run('npm test', ctx(mode({ origin: 'project' }), { trusted: false })).decision).toBe('ask')
  })

  it('ask, and say why, when the sandbox cannot start here: even commands an allow rule covers', () => {
    const allowed = mode({
      commandRules: { allow: ['git status'], deny: ['rm *'] },
      autoApprove: { command: true, sandboxedCommands: true }
    })
    const down = { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: 'install it' }
    const asked = run('git status', ctx(allowed, { sandbox: down }))
    expect(asked).toMatchObject({ decision: 'ask', rule: 'sandbox-unavailable' })
    expect(asked.reason).toBe(
      'Build mode runs commands in a sandbox, but it cannot start here: bubblewrap (bwrap) is not installed (fix: install it); this command would run unsandboxed, so it needs approval'
    )
    expect(run('rm -rf build', ctx(allowed, { sandbox: down })).decision).toBe('deny')
    expect(run('git status', ctx(allowed, { sandbox: undefined })).rule).toBe('sandbox-unavailable')
  })

  it('leave modes without a sandbox as they were', () => {
    const plain = mode({
      sandbox: undefined,
      commandRules: { allow: ['git status'] },
      autoApprove: { command: true, sandboxedCommands: true }
    })
    expect(run('git status', ctx(plain, { sandbox: undefined })).decision).toBe('allow')
    expect(run('npm test', ctx(plain)).decision).toBe('ask')
    expect(run('npm test', ctx(mode({ sandbox: { enabled: false, network: 'none' } }))).decision).toBe('ask')
  })
})
