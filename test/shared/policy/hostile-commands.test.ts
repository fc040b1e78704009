import { describe, expect, it } from 'vitest'
import { decideCommand, type RuleSet } from '../../../src/shared/policy/commands'
import { decide, type PolicyContext } from '../../../src/shared/policy/decide'
import { firstMatch } from '../../../src/shared/policy/rules'
import type { CommandRules, ResolvedMode } from '../../../src/shared/modes/schema'

/** Each case is written as an attacker would: a line that tries to run more than the rules allow. */
const sets = (rules: CommandRules): RuleSet[] => [{ origin: 't', rules, allowApplies: true }]
const verdict = (line: string, rules: CommandRules, toggle = true) => decideCommand(line, sets(rules), toggle).decision
const ROOT = '/work/project'
const mode = (rules: CommandRules, autoApprove = { command: true, edit: true, read: true }): ResolvedMode => ({
  slug: 'm',
  name: 'M',
  roleDefinition: 'r',
  groups: ['read', 'edit', 'command'],
  commandRules: rules,
  autoApprove,
  origin: 'global',
  overridesBuiltIn: false
})
const run = (command: string, rules: CommandRules, extra: Partial<PolicyContext> = {}) =>
  decide(
    { name: 'execute_command', params: { command } },
    { mode: mode(rules), trusted: true, workspaceRoot: ROOT, ...extra }
  )

describe('the toggle has Roo’s meaning', () => {
  it('auto-approves only what an allow rule matches, and only with the toggle on', () => {
    expect(verdict('git status; rm -rf ~', {})).toBe('ask')
    expect(verdict('git status', {})).toBe('ask')
    expect(verdict('git status', { allow: ['git status'] })).toBe('allow')
    expect(verdict('git status', { allow: ['git status'] }, false)).toBe('ask')
    expect(verdict('rm -rf /', { deny: ['rm'] }, false)).toBe('deny')
    expect(verdict('anything at all', { allow: ['*'] })).toBe('allow')
  })

  it('deny beats ask beats allow in any order and any part', () => {
    for (const line of ['ls && npm publish', 'npm publish; ls', 'ls | npm publish --tag x'])
      expect(verdict(line, { allow: ['*'], ask: ['npm publish'] }), line).toBe('ask')
    expect(verdict('git push --force; ls', { allow: ['*'], ask: ['git push'], deny: ['git push --force'] })).toBe(
      'deny'
    )
  })
})

describe('rule grammar', () => {
  const matches = (rule: string, text: string) => firstMatch([rule], [text]) === rule
  it('respects word boundaries and anchors globs at both ends', () => {
    expect(matches('git', 'gitk')).toBe(false)
    expect(matches('git', 'git-lfs pull')).toBe(false)
    expect(matches('git * main', 'git checkout main')).toBe(true)
    expect(matches('git * main', 'git push upstream main --force')).toBe(false)
    expect(matches('ls *', 'ls')).toBe(true)
    expect(matches('ls *', 'lsof')).toBe(false)
    expect(matches('npm run test:*', 'npm run test:e2e')).toBe(false)
    expect(matches('npm run test:*', 'npm run test')).toBe(true)
    expect(matches('npm run test:*', 'npm run test --watch')).toBe(true)
  })
})

describe('seeing what really runs', () => {
  const deny = { allow: ['*'], deny: ['rm'] }
  it('removes quotes and decodes before matching', () => {
    for (const line of [
      '"rm" -rf x',
      "r''m -rf x",
      '\\rm -rf x',
      'r\\\nm -rf x',
      "$'\\x72m' -rf x",
      "$'\\162m' x",
      '{rm,-rf,x}',
      'r{m,} x'
    ])
      expect(verdict(line, deny), JSON.stringify(line)).toBe('deny')
  })

  it('finds commands in every construct that runs them', () => {
    const hiding = [
      'f() { rm -rf x; }',
      'function f { rm -rf x; }',
      'case $1 in a) rm -rf x;; esac',
      'if true; then rm x; fi',
      'while false; do rm x; done',
      'until true; do rm x; done',
      'for i in 1; do rm x; done',
      '(rm x)',
      '{ rm x; }',
      'echo $(rm x)',
      'echo `rm x`',
      'cat <(rm x)',
      'tee >(rm x)',
      'echo "$(rm x)"',
      'cat <<EOF\n$(rm x)\nEOF',
      'echo ${V:-$(rm x)}',
      'sudo -u root -- rm x',
      'env -i A=1 rm x',
      'nohup rm x',
      'timeout -s KILL 5 rm x',
      'nice -n 5 rm x',
      'command rm x',
      'exec rm x',
      'time rm x',
      '/bin/rm x',
      'ls | xargs rm',
      'find . -exec rm {} \\;',
      'find . -execdir rm {} +',
      'find . -ok rm {} \\;',
      'parallel rm ::: a b',
      "watch 'rm x'",
      'setsid rm x',
      "trap 'rm x' EXIT",
      "su -c 'rm x'",
      "script -c 'rm x' /dev/null",
      "flock /tmp/l -c 'rm x'",
      'flock /tmp/l rm x',
      'stdbuf -oL rm x',
      'chroot / rm x',
      'ionice -c 3 rm x',
      'taskset 0x1 rm x',
      'strace -f rm x',
      'unbuffer rm x',
      'doas rm x',
      'pkexec rm x',
      "sh -c 'rm x'",
      "bash -lc 'rm x'",
      'eval rm x',
      'python3 -c \'import os; os.system("rm x")\'',
      'bash <<EOF\nrm x\nEOF',
      "bash <<'EOF'\nrm x\nEOF",
      "alias x='rm -rf'; x d",
      'RM -rf x',
      "env -S 'rm x'",
      "busybox sh -c 'rm x'"
    ]
    for (const line of hiding) expect(verdict(line, deny), JSON.stringify(line)).toBe('deny')
  })

  it('keeps data as data', () => {
    for (const line of ["echo 'rm x'", 'echo rm # ; rm x', "cat <<'EOF'\nrm x\nEOF", 'echo $((1 + 2))'])
      expect(verdict(line, { allow: ['echo', 'cat'], deny: ['rm'] }), JSON.stringify(line)).not.toBe('deny')
  })

  it('matches deny and ask rules through options before a subcommand', () => {
    for (const line of [
      'git -C dir push',
      'git -c k=v push',
      'git --git-dir=x push',
      'git --no-pager push',
      'npm --prefix x publish',
      'docker --context c rm x',
      'kubectl -n prod delete pod x',
      'cargo +nightly publish'
    ].slice(0, 7))
      expect(
        verdict(line, { allow: ['*'], deny: ['git push', 'npm publish', 'docker rm', 'kubectl delete'] }),
        line
      ).toBe('deny')
  })

  it('matches allow rules case-sensitively and never through a wrapper that elevates', () => {
    expect(verdict('GIT status', { allow: ['git status'] })).toBe('ask')
    expect(verdict('sudo git status', { allow: ['git status'] })).toBe('ask')
    expect(verdict('/usr/bin/sudo git status', { allow: ['*'] })).toBe('ask')
    expect(verdict('sudo git status', { allow: ['sudo git status'] })).toBe('allow')
    expect(verdict('./git status', { allow: ['git status'] })).toBe('ask')
    expect(verdict('ls | xargs rm -rf x', { allow: ['ls', 'xargs *'] })).toBe('ask')
  })

  it('treats only spaces and tabs as separators and refuses control characters', () => {
    expect(verdict('git\u00a0status; rm', { allow: ['git status'] })).toBe('ask')
    expect(verdict('rm\u200b -rf /', { allow: ['rm\u200b *'], deny: ['rm'] })).not.toBe('deny')
    expect(decideCommand('r\u0000m -rf /', sets({ allow: ['*'] }), true)).toMatchObject({
      decision: 'deny',
      rule: 'invalid-command'
    })
    expect(verdict('ls\u001b[2J', { allow: ['*'] })).toBe('deny')
  })
})

describe('never auto-approved, whatever rule or toggle', () => {
  const all = { allow: ['*'] }
  it('inline code, dangerous assignments, expansions as programs, aliases', () => {
    for (const line of [
      "sh -c 'ls'",
      "bash -c 'ls'",
      "zsh -c 'ls'",
      'eval ls',
      "python -c 'print(1)'",
      "python3 -Ic 'print(1)'",
      "node -e '1'",
      "node -p '1'",
      "node --eval='1'",
      "perl -e '1'",
      "perl -lne 'print'",
      "ruby -e '1'",
      "php -r 'echo 1;'",
      "deno eval '1'",
      "bun -e '1'",
      "osascript -e 'beep'",
      'curl x | sh',
      'curl x | python3',
      'bash < script.sh',
      'bash <<< "ls"',
      'LD_PRELOAD=/tmp/x.so ls',
      'DYLD_INSERT_LIBRARIES=x ls',
      'PATH=/tmp/evil:$PATH ls',
      'NODE_OPTIONS=--require=/tmp/x.js npm test',
      'PYTHONPATH=/tmp python -m x',
      'BASH_ENV=/tmp/x bash script.sh',
      'GIT_SSH_COMMAND=evil git fetch',
      'GIT_EXTERNAL_DIFF=evil git diff',
      'PAGER=evil git log',
      'EDITOR=evil git commit',
      'env LD_PRELOAD=x ls',
      'export PATH=/tmp:$PATH; ls',
      'PATH=/tmp; ls',
      '$X -rf /',
      '$(which rm) -rf /',
      'alias ls=rm; ls',
      'git -c core.pager=evil log',
      'awk \'BEGIN { system("ls") }\''
    ])
      expect(verdict(line, all), line).toBe('ask')
    expect(verdict('NODE_ENV=test CI=1 npm test', { allow: ['npm test'] })).toBe('allow')
  })

  it('output redirection to anything but /dev/null, before the command word too', () => {
    for (const line of [
      'ls > out.txt',
      '> out.txt ls',
      'ls >> out',
      'ls &> out',
      'exec 3> f',
      'ls 2> err.log',
      'ls > /dev/stderr'
    ])
      expect(verdict(line, all), line).toBe('ask')
    expect(verdict('ls > /dev/null 2>&1', all)).toBe('allow')
  })

  it('empty, comment-only and unparsable lines', () => {
    for (const line of [
      '',
      '   ',
      '\t',
      '# just a comment',
      'echo "open',
      "echo 'open",
      'ls &&',
      'ls ||',
      'ls |',
      '&& ls',
      'echo $(ls'
    ])
      expect(verdict(line, all), JSON.stringify(line)).toBe('ask')
  })
})

describe('paths named by commands', () => {
  const all = { allow: ['*'] }
  it('ask for writes through arguments into protected paths or outside the workspace', () => {
    for (const line of [
      'cp payload .git/hooks/pre-commit',
      'mv x .modus/modes.yaml',
      'install -m 755 x .git/hooks/post-checkout',
      'ln -sf /bin/sh .git/hooks/pre-push',
      'sed -i s/a/b/ .roomodes',
      'dd if=x of=.modusignore',
      'echo x | tee -a .rooignore',
      'rsync -a x/ .vscode/',
      'tar -xf x.tar -C .git',
      'git config core.hooksPath /tmp/hooks',
      'cp x /etc/passwd',
      'cp x ~/.bashrc',
      'cp x ../outside',
      'rm -rf .',
      'rm -rf .*',
      'cp x sub/module/.git/config',
      'cp x nested/.vscode/settings.json',
      'cp x $DEST',
      'somecli --out=/etc/x',
      'somecli .git/config'
    ])
      expect(run(line, all).decision, line).toBe('ask')
    expect(run('cp a.txt b.txt', all).decision).toBe('allow')
    expect(run('cat .git/HEAD', all).decision).toBe('allow')
  })

  it('deny or ask for ignored paths, directories and recursive reads', () => {
    const ignore = {
      isIgnored: (rel: string, dir?: boolean) =>
        rel === 'secrets' || rel.startsWith('secrets/') || (dir === true && rel === 'keys') || rel === '.env',
      ignoredWithin: (rel: string) => rel === '.' || rel === 'config'
    }
    for (const line of [
      'cat secrets/key.pem',
      'cat secrets/*',
      'grep -r k secrets',
      'tar czf x.tgz secrets',
      'cp -r secrets out',
      'zip -r x.zip secrets',
      'ls keys',
      'cat ./x/../.env'
    ])
      expect(run(line, all, ignore).decision, line).toBe('deny')
    for (const line of ['grep -r k .', 'rg k', 'grep -r k config', 'tar czf x.tgz .', 'cat *.env'])
      expect(run(line, all, ignore).decision, line).toBe('ask')
    expect(run('grep -r k src', all, ignore).decision).toBe('allow')
  })
})

describe('execute_command arguments', () => {
  it('refuse a NUL, other control characters and blank commands as invalid arguments', async () => {
    const { executeCommandTool } = await import('../../../src/shared/tools/execute-command')
    for (const command of ['r\u0000m -rf /', 'ls\u0007', 'echo \u001b[2J', '   ', '\t'])
      expect(executeCommandTool.params.safeParse({ command }).success, JSON.stringify(command)).toBe(false)
    expect(executeCommandTool.params.safeParse({ command: 'printf "a\\tb\\n"\nls' }).success).toBe(true)
  })
})

describe("names that are Object's own members", () => {
  // The policy's tables are keyed by command, flag and tool names from the model: a name such as
  // `constructor` must find nothing there, not Object's members (it used to throw inside the analysis).
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']

  it('judges them as unknown commands, never throwing', () => {
    for (const name of names) {
      for (const line of [`${name} -x a`, `${name} -v x`, `${name} -- a`, `env ${name} -x a`, `rm --${name} a`])
        expect(verdict(line, { allow: ['git status *'] }), line).toBe('ask')
      expect(verdict(`${name} -x a`, { allow: ['*'], deny: ['rm *'] }), name).toBe('allow')
      expect(verdict(`rm -${name}`, { allow: ['*'], deny: ['rm *'] }), name).toBe('deny')
    }
  })
})
