import { describe, expect, it } from 'vitest'
import { BUILT_IN_MODES } from '../../../src/shared/modes/builtin'
import type { ResolvedMode } from '../../../src/shared/modes/schema'
import { decide } from '../../../src/shared/policy/decide'
import { parseGitConfigList, repositoryCodeKey, runsRepositoryCode } from '../../../src/shared/policy/git-config'
import { planCommand } from '../../../src/shared/policy/run-plan'
import { analyzeCommand } from '../../../src/shared/policy/shell/analyze'

const SETTINGS =
  '--no-pager -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.pager=cat -c core.sshCommand=ssh -c core.editor=: -c sequence.editor=: ' +
  '-c log.showSignature=false -c gpg.program=gpg -c gpg.openpgp.program=gpg -c gpg.x509.program=gpgsm -c gpg.ssh.program=ssh-keygen ' +
  '-c credential.helper= -c protocol.ext.allow=never'

const plan = (line: string) => planCommand(line, analyzeCommand(line))

describe('the run plan of an auto-approved command', () => {
  it('rewrites each git invocation exactly where it stands: settings before the subcommand, driver flags after it', () => {
    expect(plan('git status')).toEqual({
      ok: true,
      plan: {
        command: `git ${SETTINGS} status`,
        names: ['git'],
        git: [{ subcommand: 'status', dirs: ['.'] }],
        readOnly: true
      }
    })
    expect(plan('git -C sub  log -1 | head -3')).toMatchObject({
      ok: true,
      plan: {
        command: `git -C sub  ${SETTINGS} log --no-ext-diff --no-textconv -1 | head -3`,
        names: ['git', 'head'],
        git: [{ subcommand: 'log', dirs: ['sub'] }]
      }
    })
    expect(plan('echo "$(git show HEAD:a)"; timeout 5 git blame a')).toMatchObject({
      ok: true,
      plan: {
        command: `echo "$(git ${SETTINGS} show --no-ext-diff --no-textconv HEAD:a)"; timeout 5 git ${SETTINGS} blame --no-ext-diff --no-textconv a`
      }
    })
    // A setting the model gives comes first, so Modus's own wins.
    expect(plan('git -c core.fsmonitor=x status')).toMatchObject({
      ok: true,
      plan: { command: `git -c core.fsmonitor=x ${SETTINGS} status` }
    })
  })

  it('follows literal cd targets to the folders git may run in', () => {
    expect(plan('cd a && git status; cd b && git -C c diff')).toMatchObject({
      ok: true,
      plan: {
        git: [
          { subcommand: 'status', dirs: ['.', 'a'] },
          { subcommand: 'diff', dirs: ['./c', 'a/c', 'b/c', 'a/b/c'].map((d) => d.replace(/^\.\//, '')) }
        ]
      }
    })
  })

  it('refuses (the command asks) where git cannot be rewritten or its folder is unknown', () => {
    for (const line of [
      'git --git-dir=/x status',
      'git --exec-path=/tmp status',
      'git -c filter.x.clean=evil status',
      'cd "$D" && git status',
      'git show --textconv HEAD',
      'git --config-env=core.pager=P log',
      'cd - && git status',
      'git {status,log}'
    ])
      expect(plan(line), line).toMatchObject({ ok: false, rule: 'git-plan' })
  })

  it('lists the names the task shell must resolve: first words, wrappers and programs', () => {
    expect(plan('nohup env A=1 ls -la | grep x')).toMatchObject({
      ok: true,
      plan: { names: ['nohup', 'env', 'ls', 'grep'] }
    })
  })

  it('is carried by an allowed decision and by an asked one (as written, nothing to check)', () => {
    const code: ResolvedMode = {
      ...BUILT_IN_MODES.find((m) => m.slug === 'code')!,
      origin: 'builtin',
      overridesBuiltIn: false,
      sandbox: undefined
    }
    const ctx = { mode: code, trusted: true, workspaceRoot: '/ws' }
    const allowed = decide({ name: 'execute_command', params: { command: 'git status' } }, ctx)
    expect(allowed).toMatchObject({ decision: 'allow', plan: { command: `git ${SETTINGS} status`, names: ['git'] } })
    const asked = decide({ name: 'execute_command', params: { command: 'git push' } }, ctx)
    expect(asked).toMatchObject({ decision: 'ask', plan: { command: 'git push', names: [], git: [], readOnly: false } })
  })
})

describe("which keys of a repository's git config may run code", () => {
  it('knows inert and overridden keys; anything else, a filter or a diff driver git cannot be told to skip, may run code', () => {
    for (const key of [
      'core.bare',
      'remote.origin.url',
      'branch.main.merge',
      'core.fsmonitor',
      'core.hooksPath',
      'gpg.ssh.program',
      'pager.log',
      'user.email'
    ])
      expect(runsRepositoryCode(key, 'status'), key).toBe(false)
    for (const key of [
      'filter.lfs.clean',
      'filter.x.process',
      'merge.x.driver',
      'core.askPass',
      'remote.origin.uploadpack',
      'core.gitProxy',
      'sendemail.smtpServer',
      'unknown.key'
    ])
      expect(runsRepositoryCode(key, 'status'), key).toBe(true)
    expect(runsRepositoryCode('diff.evil.textconv', 'show')).toBe(false)
    expect(runsRepositoryCode('diff.evil.textconv', 'status')).toBe(true)
    expect(runsRepositoryCode('diff.external', 'diff')).toBe(false)
    expect(runsRepositoryCode('alias.st', 'st')).toBe(true)
    expect(runsRepositoryCode('alias.st', 'status')).toBe(false)
  })

  it('reads `git config --list --show-scope -z` and looks only at the repository’s own scopes', () => {
    const output =
      'global\0filter.lfs.clean\ngit-lfs clean -- %f\0local\0core.bare\nfalse\0local\0includeIf.onbranch:x.path\n../evil\0'
    const entries = parseGitConfigList(output)
    expect(entries).toEqual([
      { scope: 'global', key: 'filter.lfs.clean', value: 'git-lfs clean -- %f' },
      { scope: 'local', key: 'core.bare', value: 'false' },
      { scope: 'local', key: 'includeIf.onbranch:x.path', value: '../evil' }
    ])
    expect(repositoryCodeKey(entries.slice(0, 2), 'status')).toBeNull()
    expect(repositoryCodeKey(entries, 'status')).toBe('includeIf.onbranch:x.path')
  })
})
