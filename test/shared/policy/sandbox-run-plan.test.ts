import { describe, expect, it } from 'vitest'
import { BUILT_IN_MODES } from '../../../src/shared/modes/builtin'
import { validateMode, type ModeSandbox, type ResolvedMode } from '../../../src/shared/modes/schema'
import { projectGrantItems } from '../../../src/shared/modes/project-grants'
import { decide, type PolicyContext } from '../../../src/shared/policy/decide'
import { UNTRUSTED_DEFAULT_SANDBOX } from '../../../src/shared/policy/sandbox'

/**
 * One decision, carried out as decided (#25 §9): the verdict of a command says how it runs, and the
 * reasons of a sandboxed mode's asks name their real cause (#26 §5). The trust rules (#25 §1): in a
 * folder nobody trusted, a command runs only sandboxed, or asks saying why.
 */
const ROOT = '/work/project'
const builtIn = (slug: string): ResolvedMode => ({
  ...BUILT_IN_MODES.find((m) => m.slug === slug)!,
  origin: 'builtin',
  overridesBuiltIn: false
})
const own = (over: Partial<ResolvedMode> = {}): ResolvedMode => ({
  slug: 'plain',
  name: 'Plain',
  roleDefinition: 'r',
  groups: ['read', 'edit', 'command'],
  origin: 'global',
  overridesBuiltIn: false,
  autoApprove: { read: true, command: true },
  commandRules: { allow: ['npm test *', 'pytest *', 'cargo test *', 'cat *', 'curl *'] },
  ...over
})
const boxed = (sandbox: Partial<ModeSandbox> = {}, over: Partial<ResolvedMode> = {}) =>
  own({ sandbox: { enabled: true, network: 'ask', ...sandbox }, ...over })
const available = { available: true }
const missing = { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: 'install it' }
const run = (
  command: string,
  mode: ResolvedMode,
  extra: Partial<PolicyContext> = {},
  params: Record<string, unknown> = {}
) =>
  decide(
    { name: 'execute_command', params: { command, ...params } },
    { mode, trusted: true, workspaceRoot: ROOT, sandbox: available, ...extra }
  )

describe('the built-in modes', () => {
  it('Code and Debug run commands in the sandbox where it can start (network asks); the others run none', () => {
    for (const slug of ['code', 'debug']) {
      const verdict = run('npm test', builtIn(slug))
      expect(verdict).toMatchObject({
        decision: 'allow',
        run: { sandboxed: true, sandbox: { network: 'ask', allowedDomains: [] } }
      })
    }
    expect(BUILT_IN_MODES.filter((m) => m.sandbox?.enabled).map((m) => m.slug)).toEqual(['code', 'debug'])
  })

  it('where the sandbox cannot start, a trusted folder runs the allow list as before (unsandboxed, no note)', () => {
    expect(run('npm test', builtIn('code'), { sandbox: missing })).toMatchObject({
      decision: 'allow',
      run: { sandboxed: false }
    })
    expect(run('npm test', builtIn('code'), { sandbox: missing }).run).toEqual({ sandboxed: false })
  })

  it("a user's own mode with the sandbox on asks for every command where it cannot start (as before)", () => {
    expect(run('npm test', boxed(), { sandbox: missing })).toMatchObject({
      decision: 'ask',
      rule: 'sandbox-unavailable'
    })
  })

  it('a mode the user turned the sandbox off in runs unsandboxed in a trusted folder', () => {
    expect(run('npm test', own({ sandbox: { enabled: false, network: 'none' } }))).toMatchObject({
      decision: 'allow',
      run: { sandboxed: false }
    })
  })
})

describe('a folder nobody trusted', () => {
  it("runs the repository's code (npm scripts, conftest.py, build.rs) only sandboxed: a mode without a sandbox gets the default one", () => {
    for (const command of ['npm test', 'pytest -q', 'cargo test']) {
      const verdict = run(command, own(), { trusted: false })
      expect(verdict).toMatchObject({ decision: 'allow', run: { sandboxed: true, sandbox: UNTRUSTED_DEFAULT_SANDBOX } })
      expect(UNTRUSTED_DEFAULT_SANDBOX).toEqual({ network: 'none', allowedDomains: [] })
      // Trusted, the same mode runs it unsandboxed.
      expect(run(command, own()).run).toEqual({ sandboxed: false })
    }
    expect(run('npm test', builtIn('code'), { trusted: false }).run).toMatchObject({
      sandboxed: true,
      sandbox: { network: 'ask' }
    })
  })

  it('where no sandbox can start, every command asks and says why; deny still denies', () => {
    const verdict = run('npm test', own(), { trusted: false, sandbox: missing })
    expect(verdict.decision).toBe('ask')
    expect(verdict.rule).toBe('untrusted-unsandboxed')
    expect(verdict.reason).toContain(
      'This folder is not trusted: `npm test` runs its code, and no sandbox can start here to confine it: bubblewrap (bwrap) is not installed'
    )
    expect(verdict.run).toMatchObject({
      sandboxed: false,
      note: expect.stringContaining('This command ran unsandboxed after approval')
    })
    expect(run('npm test', builtIn('code'), { trusted: false, sandbox: missing }).rule).toBe('untrusted-unsandboxed')
    expect(
      run('rm -rf x', own({ commandRules: { deny: ['rm *'] } }), { trusted: false, sandbox: missing }).decision
    ).toBe('deny')
  })

  it('the model asking to leave the sandbox asks, saying the folder is not trusted', () => {
    const verdict = run('npm test', own(), { trusted: false }, { outside_sandbox: true })
    expect(verdict).toMatchObject({ decision: 'ask', rule: 'outside-sandbox-requested', run: { sandboxed: false } })
    expect(verdict.reason).toContain('This command runs outside the sandbox because the model asked')
    expect(verdict.reason).toContain('This folder is not trusted: `npm test` may run its code.')
  })

  it('keeps back what a project mode gives back (readable credential stores) until trusted, and lists it as a grant', () => {
    const project = boxed({ readableCredentials: ['ssh'] }, { origin: 'project' })
    expect(run('npm test', project, { trusted: false }).run).toMatchObject({
      sandboxed: true,
      sandbox: { network: 'ask' }
    })
    expect((run('npm test', project, { trusted: false }).run as { sandbox: object }).sandbox).not.toHaveProperty(
      'readableCredentials'
    )
    expect(run('npm test', project, { trusted: true }).run).toMatchObject({ sandbox: { readableCredentials: ['ssh'] } })
    expect(projectGrantItems([project])).toContain("Mode 'plain' lets sandboxed commands read ~/.ssh")
  })
})

describe('the reasons of a sandboxed mode name the real cause', () => {
  const asking = boxed({}, { autoApprove: { read: true, command: true, sandboxedCommands: true }, commandRules: {} })
  it('a path: the path, not "no allow rule matches"', () => {
    const verdict = run('cat ../secrets/key.pem', asking)
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toBe(
      "The command reads '../secrets/key.pem', outside the workspace (the sandbox does not change that)."
    )
    // Without the toggle, the missing rule is the second cause.
    expect(run('cat ../secrets/key.pem', builtIn('code')).reason).toBe(
      "The command reads '../secrets/key.pem', outside the workspace (the sandbox does not change that). Also: No allow rule matches 'cat ../secrets/key.pem'."
    )
  })

  it('a URL: the URL and what the sandbox does with its host', () => {
    const verdict = run('curl https://example.com/x', boxed({}, { autoApprove: { command: true }, commandRules: {} }))
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toContain(
      'It names the URL https://example.com/x: in the sandbox its connection to example.com then asks on its own'
    )
  })

  it('outside the sandbox: "this command runs outside the sandbox because …"', () => {
    expect(run('docker ps', boxed({ unsandboxedCommands: ['docker *'] })).reason).toMatch(
      /^This command runs outside the Plain mode's sandbox because it matches the mode's unsandboxed command rule "docker \*"/
    )
  })
})

describe('the mode schema', () => {
  it('validates the credential stores a mode gives back', () => {
    const config = { slug: 'x', name: 'X', roleDefinition: 'r', groups: ['command'] }
    expect(validateMode({ ...config, sandbox: { enabled: true, readableCredentials: ['npmrc', 'ssh'] } }).ok).toBe(true)
    const bad = validateMode({ ...config, sandbox: { enabled: true, readableCredentials: ['~/.ssh'] } })
    expect(bad.ok).toBe(false)
    if (!bad.ok)
      expect(bad.errors[0]).toContain('sandbox.readableCredentials[0]: A credential store must be one of: ssh, aws')
  })
})
