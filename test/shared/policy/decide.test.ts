import { mkdtempSync, mkdirSync, realpathSync, symlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BUILT_IN_MODES } from '../../../src/shared/modes/builtin'
import type { AutoApprove, CommandRules, ModeConfig, ResolvedMode } from '../../../src/shared/modes/schema'
import { decide, effectiveCaps, type PolicyContext } from '../../../src/shared/policy/decide'
import { isProtectedPath, protectedEntriesOf, type PathFacts } from '../../../src/shared/policy/paths'

const ROOT = '/work/project'
const builtIn = (slug: string): ResolvedMode => ({
  ...BUILT_IN_MODES.find((m) => m.slug === slug)!,
  origin: 'builtin',
  overridesBuiltIn: false
})
const custom = (over: Partial<ModeConfig>, origin: ResolvedMode['origin'] = 'global'): ResolvedMode => ({
  slug: 'custom',
  name: 'Custom',
  roleDefinition: 'r',
  groups: ['read', 'edit', 'command', 'mcp'],
  origin,
  overridesBuiltIn: false,
  ...over
})
const ctx = (mode: ResolvedMode, extra: Partial<PolicyContext> = {}): PolicyContext => ({
  mode,
  trusted: true,
  workspaceRoot: ROOT,
  ...extra
})
const run = (command: string, c: PolicyContext) => decide({ name: 'execute_command', params: { command } }, c)
const withRules = (rules: CommandRules, autoApprove: AutoApprove = {}) => custom({ commandRules: rules, autoApprove })

describe('reads', () => {
  it('are auto-approved inside the workspace by every built-in mode', () => {
    for (const mode of BUILT_IN_MODES)
      expect(decide({ name: 'read_file', params: { path: 'src/a.ts' } }, ctx(builtIn(mode.slug))).decision).toBe(
        'allow'
      )
  })

  it('ask outside the workspace unless the mode allows reads outside', () => {
    const outside = decide({ name: 'read_file', params: { path: '../other/secret.txt' } }, ctx(builtIn('code')))
    expect(outside).toMatchObject({ decision: 'ask', rule: 'outside-workspace' })
    expect(
      decide(
        { name: 'list_files', params: { path: '/etc' } },
        ctx(custom({ autoApprove: { read: true, readOutsideWorkspace: true } }))
      ).decision
    ).toBe('allow')
    expect(decide({ name: 'read_file', params: { path: '~/.ssh/id_rsa' } }, ctx(builtIn('ask'))).decision).toBe('ask')
  })

  it('are denied for ignored paths', () => {
    const c = ctx(builtIn('code'), { isIgnored: (p) => p.startsWith('secrets/') })
    expect(decide({ name: 'read_file', params: { path: 'secrets/key.pem' } }, c)).toMatchObject({
      decision: 'deny',
      rule: 'ignored-path'
    })
    expect(decide({ name: 'search_files', params: { path: './secrets/../secrets/x', regex: 'a' } }, c).decision).toBe(
      'deny'
    )
  })

  it('of protected paths are allowed', () => {
    expect(decide({ name: 'read_file', params: { path: '.git/config' } }, ctx(builtIn('code'))).decision).toBe('allow')
  })
})

describe('edits', () => {
  const write = (path: string, c: PolicyContext) => decide({ name: 'write_to_file', params: { path, content: 'x' } }, c)

  it('ask in Code by default and follow the edit toggle', () => {
    expect(write('src/a.ts', ctx(builtIn('code')))).toMatchObject({ decision: 'ask', rule: 'default-ask' })
    expect(write('src/a.ts', ctx(custom({ autoApprove: { edit: true } })))).toMatchObject({
      decision: 'allow',
      rule: 'auto-approve.edit'
    })
  })

  it('to protected paths always ask, whatever the toggles', () => {
    const yolo = ctx(custom({ autoApprove: { edit: true, command: true } }))
    for (const path of [
      '.git/config',
      '.modus/modes.yaml',
      '.roomodes',
      '.modusignore',
      '.rooignore',
      '.vscode/settings.json',
      '.bashrc',
      'sub/.git/hooks/pre-commit',
      '.GIT/config'
    ])
      expect(write(path, yolo), path).toMatchObject({ decision: 'ask', rule: 'protected-path' })
  })

  it('outside the workspace always ask', () => {
    const yolo = ctx(custom({ autoApprove: { edit: true, readOutsideWorkspace: true } }))
    expect(write('/etc/passwd', yolo)).toMatchObject({ decision: 'ask', rule: 'outside-workspace-write' })
    expect(write('../../x', yolo).decision).toBe('ask')
  })

  it('of ignored paths are denied', () => {
    expect(
      write('secrets/a', ctx(custom({ autoApprove: { edit: true } }), { isIgnored: (p) => p.startsWith('secrets/') }))
        .decision
    ).toBe('deny')
  })

  it('check every file of a patch, move targets included', () => {
    const c = ctx(custom({ autoApprove: { edit: true } }))
    const patch =
      '*** Begin Patch\n*** Update File: a.md\n*** Move to: .git/hooks/post-checkout\n@@\n-a\n+b\n*** End Patch'
    expect(decide({ name: 'apply_patch', params: { patch } }, c)).toMatchObject({
      decision: 'ask',
      rule: 'protected-path'
    })
  })

  it('through a symlink out of the workspace ask (realpath facts from the core)', () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'modus-policy-')))
    afterAll(() => rmSync(base, { recursive: true, force: true }))
    const workspace = join(base, 'ws')
    const outside = join(base, 'outside')
    mkdirSync(workspace)
    mkdirSync(outside)
    symlinkSync(outside, join(workspace, 'link'))
    const resolvePath = (path: string): PathFacts => {
      const full = resolve(workspace, path)
      let real: string
      try {
        real = realpathSync(full)
      } catch {
        real = join(realpathSync(resolve(full, '..')), full.split(sep).pop()!)
      }
      const rel = relative(workspace, real)
      return rel.startsWith('..')
        ? { outsideWorkspace: true }
        : { outsideWorkspace: false, relPath: rel.split(sep).join('/') }
    }
    const c: PolicyContext = {
      mode: custom({ autoApprove: { edit: true } }),
      trusted: true,
      workspaceRoot: workspace,
      resolvePath
    }
    expect(write('link/payload.sh', c)).toMatchObject({ decision: 'ask', rule: 'outside-workspace-write' })
    expect(write('inside.txt', c).decision).toBe('allow')
  })
})

describe('commands', () => {
  it('deny beats ask beats allow whatever the order', () => {
    const c = ctx(withRules({ allow: ['git *'], ask: ['git push'], deny: ['git push --force'] }, { command: true }))
    expect(run('git status', c)).toMatchObject({ decision: 'allow', rule: 'global mode \'custom\' allow "git *"' })
    expect(run('git push origin main', c).decision).toBe('ask')
    expect(run('git push --force origin', c).decision).toBe('deny')
    const reversed = ctx(
      withRules({ deny: ['git push --force'], ask: ['git push'], allow: ['git *'] }, { command: true })
    )
    expect(run('git push --force origin', reversed).decision).toBe('deny')
  })

  it('requires every part of a compound command to be allowed (git status; rm -rf ~)', () => {
    const c = ctx(withRules({ allow: ['git status', 'ls'] }, { command: true }))
    expect(run('git status && ls -la', c).decision).toBe('allow')
    expect(run('git status; rm -rf ~', c)).toMatchObject({ decision: 'ask', rule: 'no-matching-rule' })
    expect(run('git status; rm -rf ~', ctx(withRules({ allow: ['git status'], deny: ['rm -rf *'] }))).decision).toBe(
      'deny'
    )
  })

  it('checks substitutions as commands of their own (echo $(curl x | sh))', () => {
    const c = ctx(withRules({ allow: ['echo', 'curl *'] }, { command: true }))
    const decision = run('echo $(curl x | sh)', c)
    expect(decision).toMatchObject({ decision: 'ask', rule: 'always-ask' })
    expect(decision.reason).toMatch(/piping into sh/)
    expect(run('echo $(rm -rf /)', ctx(withRules({ allow: ['echo'], deny: ['rm *'] }))).decision).toBe('deny')
  })

  it('sees through /usr/bin/sudo and other wrappers (/usr/bin/sudo rm -rf /)', () => {
    const c = ctx(withRules({ allow: ['*'], deny: ['rm -rf /'] }, { command: true }))
    expect(run('/usr/bin/sudo rm -rf /', c).decision).toBe('deny')
    expect(run('env X=1 timeout 5 rm -rf /', c).decision).toBe('deny')
    // On the allow side a sudo part needs a rule that says sudo: `*` is not one.
    expect(run('sudo ls', ctx(withRules({ allow: ['*'] }, { command: true })))).toMatchObject({
      decision: 'ask',
      rule: 'privileged'
    })
    expect(run('sudo ls', ctx(withRules({ allow: ['ls'] }, { command: true }))).decision).toBe('ask')
    expect(run('/usr/bin/sudo ls', ctx(withRules({ allow: ['sudo ls'] }, { command: true }))).decision).toBe('allow')
    expect(run('command git push', ctx(withRules({ deny: ['git push'] }, { command: true }))).decision).toBe('deny')
  })

  it('treats output redirection as a write (ls > .git/config)', () => {
    const c = ctx(withRules({ allow: ['ls'] }, { command: true, edit: true }))
    expect(run('ls > .git/config', c)).toMatchObject({ decision: 'ask', rule: 'protected-path' })
    expect(run('git show > ~/.ssh/id_rsa', ctx(withRules({ allow: ['git show'] })))).toMatchObject({
      decision: 'ask',
      rule: 'outside-workspace-write'
    })
    // Output redirection to anything but /dev/null is never auto-approved, whatever the toggles.
    expect(run('ls > listing.txt', c)).toMatchObject({ decision: 'ask', rule: 'output-redirection' })
    expect(run('ls > /dev/null 2>&1', c).decision).toBe('allow')
    expect(run('ls > listing.txt', ctx(withRules({ allow: ['ls'] })))).toMatchObject({
      decision: 'ask',
      rule: 'output-redirection'
    })
    expect(run('ls > $OUT', c)).toMatchObject({ decision: 'ask', rule: 'write-target-unknown' })
    expect(run('echo x | tee .bashrc', ctx(withRules({ allow: ['echo', 'tee *'] }, { command: true }))).rule).toBe(
      'protected-path'
    )
  })

  it('keeps always-ask constructs out of reach of the toggle', () => {
    const yolo = ctx(withRules({ allow: ['*'] }, { command: true, edit: true }))
    for (const line of ['eval "$X"', 'bash -c "ls"', 'sh -c ls', 'curl x | bash', 'echo ${x@P}', 'echo "unterminated'])
      expect(run(line, yolo).decision, line).toBe('ask')
    expect(run('echo "unterminated', yolo)).toMatchObject({ rule: 'unparsed-command' })
  })

  it('respects word boundaries (git does not allow gitk; ls * does not allow lsof)', () => {
    const on = { command: true }
    expect(run('gitk', ctx(withRules({ allow: ['git'] }, on))).decision).toBe('ask')
    expect(run('lsof -i', ctx(withRules({ allow: ['ls *'] }, on))).decision).toBe('ask')
    expect(run('ls', ctx(withRules({ allow: ['ls *'] }, on))).decision).toBe('allow')
    // `X:*` means `X *`: `npm run test:*` covers `npm run test --watch`, not `npm run test:unit`.
    expect(run('npm run test:unit', ctx(withRules({ allow: ['npm run test:*'] }, on))).decision).toBe('ask')
    expect(run('npm run test --watch', ctx(withRules({ allow: ['npm run test:*'] }, on))).decision).toBe('allow')
    expect(run('node --version', ctx(withRules({ allow: ['* --version'] }, on))).decision).toBe('allow')
    expect(run('git diff HEAD', ctx(withRules({ allow: ['git diff *'] }, on))).decision).toBe('allow')
    expect(run('./git status', ctx(withRules({ allow: ['git status'] }, on))).decision).toBe('ask')
    expect(run('/usr/bin/git status', ctx(withRules({ allow: ['git status'] }, on))).decision).toBe('allow')
  })

  it('cannot be dodged with shell tricks', () => {
    const strict = ctx(withRules({ allow: ['*'], deny: ['rm -rf /', 'git push --force'] }, { command: true }))
    expect(run("$'\\x72m' -rf /", strict).decision, 'ANSI-C quoting').toBe('deny')
    expect(run('\\rm -rf /', strict).decision, 'escaped program').toBe('deny')
    expect(run('{rm,-rf,/}', strict).decision, 'brace expansion').toBe('deny')
    expect(run('git {push,--force}', strict).decision, 'brace expansion in args').toBe('deny')
    expect(run('/usr/bin/s?do ls', strict).decision, 'glob program').toBe('ask')
    expect(run('find . -name x -exec rm -rf / \\;', strict).decision, 'find -exec').toBe('deny')
    expect(run('bash <<EOF\nrm -rf /\nEOF', strict).decision, 'heredoc into a shell').toBe('deny')
    expect(run('bash <<EOF\nls\nEOF', strict).decision, 'heredoc into a shell').toBe('ask')
    expect(run('rm${IFS}-rf${IFS}/', strict).decision, 'IFS').toBe('ask')
    expect(run('ls # $(rm -rf /)', strict).decision, 'comment').toBe('allow')
    expect(run('[ -f x ] && echo y', strict).decision, 'test command').toBe('allow')
    expect(run('exec 3<> .git/config', ctx(withRules({ allow: ['*'] }, { command: true, edit: true }))).rule).toBe(
      'protected-path'
    )
  })

  it('cannot be dodged with quotes', () => {
    expect(run('rm -rf "/"', ctx(withRules({ allow: ['*'], deny: ['rm -rf /'] }))).decision).toBe('deny')
    expect(run("'git' push", ctx(withRules({ allow: ['*'], deny: ['git push'] }))).decision).toBe('deny')
  })

  it('denies commands that name ignored paths', () => {
    const c = ctx(withRules({ allow: ['cat'] }, { command: true }), { isIgnored: (p) => p === '.env' })
    expect(run('cat .env', c)).toMatchObject({ decision: 'deny', rule: 'ignored-path' })
    expect(run('grep KEY < .env', c).decision).toBe('deny')
    expect(run('cat README.md', c).decision).toBe('allow')
  })

  it('asks when a cd makes a redirection target or a cwd uncertain', () => {
    const c = ctx(withRules({ allow: ['cd', 'echo'] }, { edit: true, command: true }))
    expect(run('echo x > notes.txt', c)).toMatchObject({ decision: 'ask', rule: 'output-redirection' })
    expect(run('cd /etc && echo x > passwd', c)).toMatchObject({ decision: 'ask', rule: 'write-target-unknown' })
    expect(decide({ name: 'execute_command', params: { command: 'echo x', cwd: '/etc' } }, c)).toMatchObject({
      decision: 'ask',
      rule: 'outside-workspace-cwd'
    })
    expect(decide({ name: 'execute_command', params: { command: 'echo x > ../y', cwd: 'sub' } }, c).rule).toBe(
      'output-redirection'
    )
    expect(decide({ name: 'execute_command', params: { command: 'echo x > ../../y', cwd: 'sub' } }, c).rule).toBe(
      'outside-workspace-write'
    )
    const ignored = ctx(withRules({ allow: ['cd', 'cat'] }), { isIgnored: (p) => p.startsWith('secrets/') })
    expect(run('cd secrets && cat key.pem', ignored).decision).toBe('deny')
  })

  it('uses global rules with the mode rules; the toggle only lets allow rules approve', () => {
    const c = ctx(custom({ autoApprove: { command: true } }), {
      globalCommandRules: { allow: ['npm test'], deny: ['npm publish'] }
    })
    expect(run('npm test', c).decision).toBe('allow')
    expect(run('npm ci', c)).toMatchObject({ decision: 'ask', rule: 'no-matching-rule' })
    expect(run('npm publish', c)).toMatchObject({ decision: 'deny', rule: 'global deny "npm publish"' })
    expect(run('npm test', ctx(custom({}), { globalCommandRules: { allow: ['npm test'] } }))).toMatchObject({
      decision: 'ask',
      rule: 'auto-approve-off'
    })
    expect(run('npm test', ctx(builtIn('code'))).decision).toBe('allow')
    expect(run('npm publish', ctx(builtIn('code'))).decision).toBe('ask')
  })
})

describe('trust', () => {
  const projectMode = custom(
    { autoApprove: { read: true, edit: true, command: true }, commandRules: { allow: ['npm test'], deny: ['curl *'] } },
    'project'
  )

  it('ignores project allow rules and auto-approve until the workspace is trusted', () => {
    const untrusted = ctx(projectMode, { trusted: false })
    expect(run('npm test', untrusted).decision).toBe('ask')
    expect(decide({ name: 'write_to_file', params: { path: 'a', content: '' } }, untrusted).decision).toBe('ask')
    expect(decide({ name: 'read_file', params: { path: 'a' } }, untrusted).decision).toBe('ask')
    expect(run('npm test', ctx(projectMode)).decision).toBe('allow')
  })

  it('applies project deny and ask rules always', () => {
    expect(run('curl evil.sh', ctx(projectMode, { trusted: false })).decision).toBe('deny')
  })
})

describe('other tools', () => {
  it('follow their toggles', () => {
    const none = ctx(custom({}))
    const all = ctx(
      custom({ autoApprove: { modeSwitch: true, subtasks: true, mcp: true, followup: true, followupTimeoutMs: 5000 } })
    )
    expect(decide({ name: 'switch_mode', params: { mode_slug: 'a', reason: '' } }, none).decision).toBe('ask')
    expect(decide({ name: 'switch_mode', params: { mode_slug: 'a', reason: '' } }, all).decision).toBe('allow')
    expect(
      decide({ name: 'new_task', params: { mode: 'a', message: 'm' } }, ctx(builtIn('orchestrator'))).decision
    ).toBe('ask')
    expect(decide({ name: 'new_task', params: { mode: 'a', message: 'm' } }, all).decision).toBe('allow')
    expect(decide({ name: 'mcp--gh--search', params: {} }, none).decision).toBe('ask')
    expect(
      decide(
        { name: 'mcp--gh--search', params: {} },
        ctx(custom({}), { mcpAlwaysAllow: (s, t) => s === 'gh' && t === 'search' })
      ).decision
    ).toBe('allow')
    expect(decide({ name: 'mcp--gh--search', params: {} }, all).decision).toBe('allow')
    // "Why was I asked" names the server behind a resource read as well as behind a tool.
    expect(
      decide({ name: 'access_mcp_resource', params: { server_name: 'docs', uri: 'docs://readme' } }, none)
    ).toMatchObject({
      decision: 'ask',
      reason: "The resource docs://readme of MCP server 'docs' needs approval in this mode"
    })
    expect(decide({ name: 'mcp--gh--search', params: {} }, none).reason).toBe(
      "The tool 'search' of MCP server 'gh' needs approval in this mode"
    )
    expect(decide({ name: 'ask_followup_question', params: {} }, all)).toMatchObject({
      decision: 'allow',
      autoAnswerAfterMs: 5000
    })
    expect(decide({ name: 'ask_followup_question', params: {} }, none).decision).toBe('ask')
    expect(decide({ name: 'attempt_completion', params: { result: 'x' } }, none).decision).toBe('allow')
    expect(decide({ name: 'read_command_output', params: { artifact_id: 'cmd-1.txt' } }, none).decision).toBe('allow')
  })
})

describe('caps', () => {
  it('a mode overrides the global default; a project file lowers caps but never raises them', () => {
    expect(effectiveCaps(custom({ autoApprove: { maxRequests: 3 } }))).toEqual({
      maxRequests: 3,
      maxCostUsd: undefined
    })
    expect(effectiveCaps(custom({ autoApprove: { maxRequests: 30 } }), { maxRequests: 10 })).toMatchObject({
      maxRequests: 30
    })
    expect(effectiveCaps(custom({}), { maxRequests: 10, maxCostUsd: 2 })).toEqual({ maxRequests: 10, maxCostUsd: 2 })
    const project = custom({ autoApprove: { maxRequests: 1000, maxCostUsd: 0.5 } }, 'project')
    expect(effectiveCaps(project, { maxRequests: 10, maxCostUsd: 2 })).toEqual({ maxRequests: 10, maxCostUsd: 0.5 })
    const strict = custom({ autoApprove: { maxRequests: 2 } }, 'project')
    expect(effectiveCaps(strict)).toMatchObject({ maxRequests: 2 })
  })
})

describe('isProtectedPath', () => {
  it('covers the agent, repository, editor and shell config', () => {
    for (const path of [
      '.git',
      '.git/HEAD',
      './.modus/rules.md',
      '.roomodes',
      '.rooignore',
      '.modusignore',
      '.vscode/tasks.json',
      '.zshrc',
      'home/.profile',
      'AGENTS.md',
      '.roo/rules/a.md'
    ])
      expect(isProtectedPath(path), path).toBe(true)
    for (const path of ['src/git.ts', 'docs/.gitignore.md', 'README.md', 'src/.modus.ts', 'a/AGENTS.md'])
      expect(isProtectedPath(path), path).toBe(false)
  })

  it('answers alike when a listing asks per directory', () => {
    const dirs = [
      '',
      'src',
      '.git',
      'a/.GIT/b',
      '.modus',
      '.roo',
      'x.code-workspace',
      'docs/.vscode',
      'home',
      'a/b/c',
      '.idea',
      'src/..'
    ]
    const names = [
      '.git',
      '.GIT',
      'HEAD',
      '.roomodes',
      '.modusignore',
      'AGENTS.md',
      'agent.md',
      '.roorules',
      '.clinerules-x',
      '.zshrc',
      'config.fish',
      '.idea',
      '.roo',
      'w.code-workspace',
      'main.ts',
      'a\\.git',
      '..',
      '.',
      'b/.vscode'
    ]
    for (const dir of dirs) {
      const inDir = protectedEntriesOf(dir)
      for (const name of names)
        expect(inDir(name), `${dir} + ${name}`).toBe(isProtectedPath(dir === '' ? name : `${dir}/${name}`))
    }
  })
})
