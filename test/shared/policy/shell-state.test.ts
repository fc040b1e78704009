import { performance } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { decideCommand, type RuleSet } from '../../../src/shared/policy/commands'
import { firstMatch } from '../../../src/shared/policy/rules'
import { sedScript } from '../../../src/shared/policy/shell/sed-script'
import type { CommandRules } from '../../../src/shared/modes/schema'
import { CODE_COMMAND_RULES } from '../../../src/shared/modes/builtin'

/**
 * Issue 25 §2, §6, §7, written as an attacker would: what runs is decided by shell state the text
 * does not show (variables bash evaluates), by programs that run programs, and by rules that must
 * decide in linear time.
 */
const sets = (rules: CommandRules): RuleSet[] => [{ origin: 't', rules, allowApplies: true }]
const decided = (line: string, rules: CommandRules) => decideCommand(line, sets(rules), true)
const verdict = (line: string, rules: CommandRules) => decided(line, rules).decision
const code = { allow: [...CODE_COMMAND_RULES.allow] }
const everything = { allow: ['*'] }

describe('variables: an allow-list of inert names (§2)', () => {
  it('the issue’s lines ask, naming the variable', () => {
    const cases: Array<[string, string]> = [
      ["BASH_ALIASES[git]='id>m; git'; git status", 'BASH_ALIASES'],
      ['BASH_CMDS[pytest]=/bin/sh; git status', 'BASH_CMDS'],
      ["MAILPATH='d?$(id>m)'; git status", 'MAILPATH'],
      ["RANDOM='a[$(id>m)]'; git status", 'RANDOM'],
      ["HISTCMD='a[$(id>m)]'; git status", 'HISTCMD'],
      ["SRANDOM='a[$(id>m)]'; git status", 'SRANDOM'],
      [
        'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=\'sh -c "id>m"\' cargo test',
        'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER'
      ],
      ['RUSTUP_TOOLCHAIN=$TMPDIR/evil cargo test', 'RUSTUP_TOOLCHAIN'],
      ['RUSTC_WORKSPACE_WRAPPER=./w cargo test', 'RUSTC_WORKSPACE_WRAPPER']
    ]
    for (const [line, name] of cases) {
      const decision = decided(line, code)
      expect(decision.decision, line).toBe('ask')
      expect(decision.reason, line).toContain(name)
    }
  })

  it('every form of assignment goes through the list', () => {
    const forms = [
      'X=1 git status',
      'X=1; git status',
      'export X=1; git status',
      'export X; git status',
      'declare X=1; git status',
      'typeset X=1; git status',
      'local X=1; git status',
      'readonly X=1; git status',
      'read X < /dev/null; git status',
      'read -ra X <<< "a b"; git status',
      'mapfile X < /dev/null; git status',
      'readarray -t X < /dev/null; git status',
      'printf -v X %s 1; git status',
      'printf -vX %s 1; git status',
      'for X in 1 2; do git status; done',
      'select X in 1; do git status; done',
      'getopts ab X; git status',
      'let X=1; git status',
      'X[0]=1; git status',
      'X+=1; git status',
      'env X=1 git status',
      'wait -p X; git status'
    ]
    for (const line of forms) {
      const decision = decided(line, everything)
      expect(decision.decision, line).toBe('ask')
      expect(decision.reason, line).toMatch(/\bX\b|let/)
    }
  })

  it('a default that assigns (`${NAME:=value}`) and a bare statement ask, naming the variable', () => {
    for (const [line, name] of [
      [": ${MAILPATH:='d?$(id>m)'}", 'MAILPATH'],
      [': ${PROMPT_COMMAND=id}', 'PROMPT_COMMAND'],
      ["PROMPT_COMMAND='id>m'", 'PROMPT_COMMAND'],
      ['x=1', 'setting x']
    ]) {
      const decision = decided(line, everything)
      expect(decision.decision, line).toBe('ask')
      expect(decision.reason, line).toContain(name)
    }
    expect(verdict('echo ${LANG:=C} ${X:-default}', everything)).toBe('allow')
  })

  it('inert names with plain literal values auto-run', () => {
    for (const line of [
      'NODE_ENV=test CI=1 npm test',
      'CI=true FORCE_COLOR=0 NO_COLOR=1 npm test',
      'LANG=C.UTF-8 LC_ALL=C git status',
      'TZ=Europe/Paris git log',
      'TZ=UTC git log',
      'RUST_BACKTRACE=1 cargo test',
      'RUST_LOG=mycrate=debug,info cargo test',
      'PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 pytest -q',
      'TERM=xterm-256color git log',
      'for LANG in C en_US.UTF-8; do git status; done'
    ])
      expect(verdict(line, code), line).toBe('allow')
    for (const line of ['export CI=1; npm test', 'declare -x NODE_ENV=test; npm test', 'export LANG'])
      expect(verdict(line, everything), line).toBe('allow')
  })

  it('an inert name asks when its value is not a literal or is a path', () => {
    for (const line of [
      'LANG=$X git status',
      'LANG=$(cat f) git status',
      'LANG=/tmp/evil git status',
      'LC_ALL=../../x git status',
      'TZ=/etc/localtime git log',
      'TZ=../../../tmp/zone git log',
      'TZ=:/tmp/zone git log',
      'TERM=~/x git log',
      "CI='a[$(id>m)]' git status",
      'for LANG in $X; do git status; done',
      'read LANG; git status'
    ])
      expect(verdict(line, code), line).toBe('ask')
  })

  it('declare options that change how bash reads a variable ask, and a name with a subscript asks', () => {
    for (const line of [
      'declare -i CI; git status',
      'declare -n CI=PATH; git status',
      'declare -a CI; git status',
      "printf -v 'CI[$(id>m)]' x; git status",
      "test -v 'a[$(id>m)]'",
      "[ -v 'a[$(id>m)]' ]",
      "unset 'a[$(id>m)]'"
    ])
      expect(verdict(line, everything), line).toBe('ask')
    expect(verdict('declare -p; git status', everything)).toBe('allow')
    expect(verdict('export -p', everything)).toBe('allow')
  })

  it('make variable overrides on the command line go through the list too', () => {
    expect(verdict('make SHELL=\'sh -c "id>m"\' all', { allow: ['make *'] })).toBe('ask')
    expect(verdict('make CC=/tmp/evil all', { allow: ['make *'] })).toBe('ask')
    expect(verdict('make all', { allow: ['make *'] })).toBe('allow')
  })
})

describe('arithmetic and subscripts over variables ask (§2)', () => {
  it('the issue’s lines ask', () => {
    for (const line of [
      "x='a[$(id>m)]'; git log --max-count=$((x+1))",
      'git log --max-count=$((x+1))',
      'git log ${arr[x]}',
      'git log ${H:x:0}',
      'git log $[x+1]',
      '((x++)); git status',
      'for ((i=0; i<n; i++)); do git status; done',
      'let x+1',
      '[[ $x -eq 1 ]] && git status',
      '[[ 1 -lt y ]] && git status'
    ])
      expect(verdict(line, everything), line).toBe('ask')
  })

  it('arithmetic over literal numbers and numeric parameters auto-runs', () => {
    for (const line of [
      'git log --max-count=$((1+2))',
      'git log ${arr[0]}',
      'git log "${arr[@]}"',
      'git log ${H:1:2}',
      'git log ${H:-x}',
      'git log ${H:+x}',
      '((1)); git status',
      '[[ $# -eq 0 ]] && git status',
      '[[ 2 -gt 1 ]] && git status',
      'git log ${#H}',
      'let 1'
    ])
      expect(verdict(line, everything), line).toBe('allow')
  })

  it('names the construct in the reason', () => {
    expect(decided('git log ${H:x:0}', everything).reason).toContain('substring offset')
    expect(decided('git log ${arr[x]}', everything).reason).toContain('subscript')
    expect(decided('git log $((x+1))', everything).reason).toContain('arithmetic')
  })
})

describe('commands that run commands (§6)', () => {
  const sedAllowed = { allow: ['sed *'], deny: ['touch'] }
  const allButTouch = { allow: ['*'], deny: ['touch'] }

  it('sed scripts that run commands ask, whatever the rules', () => {
    for (const line of [
      "sed -n '1e touch P' f",
      "sed 's/x/touch P/e' f",
      "sed -e 's/x/y/' -e '1e touch P' f",
      "sed --expression='1 e touch P' f",
      "sed -ne '/a/ e id' f",
      "sed '$!{e id\n}' f"
    ])
      expect(verdict(line, sedAllowed), line).not.toBe('allow')
    for (const line of [
      "sed -n '1e id' f",
      "sed 's/x/y/e' f",
      'sed -f script.sed f',
      "sed 's/x/y/w out' f",
      "sed '1w out' f"
    ]) {
      const decision = decided(line, { allow: ['sed *'] })
      expect(decision.decision, line).toBe('ask')
      expect(decision.rule, line).toBe('always-ask')
    }
    for (const line of [
      "sed -n '1p' f",
      "sed 's/e/E/g' f",
      "sed -i.bak 's/x/y/;s/a/b/' f",
      "sed '/^#/d;s/ *$//' f",
      "sed -E 's/(a|b)+/x/2' f",
      "sed 'y/abc/xyz/' f",
      "sed '/start/,/end/{/x/d}' f",
      "sed '1i\\\nheader' f"
    ])
      expect(verdict(line, { allow: ['sed *'] }), line).toBe('allow')
  })

  it('reads sed scripts command by command', () => {
    expect(sedScript('s/e/e/g')).toEqual({ runs: false, writes: false, unreadable: false })
    expect(sedScript('s/x/y/ge').runs).toBe(true)
    expect(sedScript('s|a/b|e|e').runs).toBe(true)
    expect(sedScript('/e/ d').runs).toBe(false)
    expect(sedScript('a e text').runs).toBe(false)
    expect(sedScript('$ e').runs).toBe(true)
    expect(sedScript('bend; e id; :end').runs).toBe(true)
  })

  it('programs that run a named program are seen through or ask when a deny rule names it', () => {
    for (const line of [
      'linux64 touch P',
      'linux32 touch P',
      'setarch x86_64 touch P',
      'setarch x86_64 -R touch P',
      'prlimit --nofile=1024 touch P',
      'prlimit touch P',
      "sg grp -c 'touch P'",
      'sg grp touch P',
      'ssh-agent touch P',
      'dbus-launch touch P',
      "make --eval='x:;touch P' x",
      'make -E x x',
      'unknownwrapper --flag touch P',
      'some-runner /usr/bin/touch P',
      "sudo -u x bash -c 'touch P'",
      "git grep -O'touch P' x",
      'awk \'BEGIN { system("touch P") }\'',
      'find . -ok touch {} \\;',
      "x $'\\x74ouch' P",
      'x tou{ch,} P'
    ])
      expect(verdict(line, allButTouch), line).not.toBe('allow')
  })

  it('asks naming the rule when the name is only an argument', () => {
    const decision = decided('unknownwrapper touch P', allButTouch)
    expect(decision.decision).toBe('ask')
    expect(decision.rule).toBe('t deny "touch"')
    expect(decided("xyz -c 'touch P'", { allow: ['*'], ask: ['touch'] }).rule).toBe('t ask "touch"')
  })

  it('a word proven to be data does not ask: a file a known reader reads, a quoted message', () => {
    for (const line of [
      'cat touch',
      'git commit -m "touch the files"',
      'git commit -m touch',
      "echo 'touch'",
      'ls; touchy x',
      'cat touch.txt',
      'git status # touch P'
    ])
      expect(verdict(line, allButTouch), line).toBe('allow')
    // echo's text is data only while it goes to the terminal: piped or substituted, it may run.
    for (const line of ["echo '!touch P' | ed f", "xyz $(echo 'touch') P", "echo 'touch P' > x"])
      expect(verdict(line, allButTouch), line).toBe('ask')
  })

  it('git grep -O, make --eval, awk system/pipes and find -ok ask whatever the rules', () => {
    for (const line of [
      'git grep -O x',
      'git grep --open-files-in-pager=vim x',
      "make --eval='all:; id'",
      'make -E "x"',
      'awk \'{ print | "sh" }\' f',
      'awk \'{ "date" | getline d }\' f',
      'awk \'BEGIN { system("id") }\'',
      'find . -ok ls {} \\;',
      "gawk -l ext '{}' f",
      'gawk \'@load "x"; {}\' f'
    ])
      expect(decided(line, everything).rule, line).toBe('always-ask')
    for (const line of ['git grep -n x', 'make all', "awk '{ print $1 }' f", 'find . -name x'])
      expect(verdict(line, everything), line).toBe('allow')
  })

  it('a deny rule’s flags match in any order and spelling', () => {
    const rules = { allow: ['*'], deny: ['rm -rf *'] }
    for (const line of [
      'rm -rf x',
      'rm -fr x',
      'rm -r -f x',
      'rm x -rf',
      'rm -f -r x',
      'rm --recursive --force x',
      'rm -R -f x',
      'rm -rfv x',
      'rm -v -f x -r',
      '/bin/rm -fr x',
      'RM -fr x'
    ])
      expect(verdict(line, rules), line).toBe('deny')
    for (const line of ['rm -r x', 'rm -f x', 'rm x', 'rm -- -rf']) expect(verdict(line, rules), line).toBe('allow')
    expect(verdict('git push origin main -f', { allow: ['*'], deny: ['git push --force'] })).toBe('deny')
    expect(verdict('git push --force-with-lease', { allow: ['*'], deny: ['git push --force'] })).toBe('allow')
    expect(verdict('rm -fr /', { allow: ['*'], ask: ['rm -rf /'] })).toBe('ask')
    expect(verdict('rm -fr ./x', { allow: ['*'], ask: ['rm -rf /'] })).toBe('allow')
  })

  it('an allow rule still means exactly its words', () => {
    expect(verdict('rm -fr x', { allow: ['rm -rf *'] })).toBe('ask')
  })

  it('a quoted word is one word', () => {
    expect(verdict("'git status'", { allow: ['git status *'] })).toBe('ask')
    expect(verdict('"git status" --short', { allow: ['git status *'] })).toBe('ask')
    expect(verdict("git 'status --short'", { allow: ['git status *'] })).toBe('ask')
    expect(verdict('git status --short', { allow: ['git status *'] })).toBe('allow')
    expect(verdict("git log --grep='a b'", { allow: ['git log *'] })).toBe('allow')
  })
})

describe('rules match in linear time (§7)', () => {
  // The issue asks for this bound in a test. A backtracking matcher took about a minute on 70
  // characters; the linear one takes about a millisecond here (idle machine). The best of 15 runs
  // after a warm-up is the command's own cost, which a machine shared by many jobs only delays.
  it('the issue’s pattern against a 10,000-character command decides in under 10 ms (best of 15 runs)', () => {
    const rule = '*a*a*a*a*a*a*a*a*c'
    const line = `echo ${'a'.repeat(9995)}`
    expect(firstMatch([rule], [line], 'folded')).toBeUndefined()
    decideCommand(line, sets({ allow: ['*'], deny: [rule] }), true)
    const times: number[] = []
    for (let run = 0; run < 15; run++) {
      const start = performance.now()
      const decision = decideCommand(line, sets({ allow: ['*'], deny: [rule] }), true)
      times.push(performance.now() - start)
      expect(decision.decision).toBe('allow')
    }
    times.sort((a, b) => a - b)
    expect(times[0]).toBeLessThan(10)
  })

  it('keeps the glob’s meaning', () => {
    const matches = (rule: string, text: string) => firstMatch([rule], [text]) === rule
    expect(matches('*a*a*c', 'xaaac')).toBe(true)
    expect(matches('*a*a*c', 'xac')).toBe(false)
    expect(matches('a*a', 'a')).toBe(false)
    expect(matches('a*a', 'aa')).toBe(true)
    expect(matches('git * main', 'git checkout main')).toBe(true)
    expect(matches('git * main', 'git main')).toBe(false)
    expect(matches('* --version', 'node --version')).toBe(true)
    expect(matches('npm run test:*', 'npm run test')).toBe(true)
    expect(matches('ls *', 'ls')).toBe(true)
    expect(matches('ls *', 'lsof')).toBe(false)
    expect(matches('.*', '.x')).toBe(true)
    expect(matches('a.c', 'abc')).toBe(false)
  })
})
