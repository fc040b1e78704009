import { describe, expect, it } from 'vitest'
import { parseShell } from '../../../src/shared/policy/shell/parser'
import { analyzeCommand } from '../../../src/shared/policy/shell/analyze'

const texts = (line: string) => {
  const parsed = parseShell(line)
  expect(parsed.ok, parsed.ok ? '' : parsed.error).toBe(true)
  return parsed.commands.map((command) => command.text)
}
const argvs = (line: string) => analyzeCommand(line).parts.map((part) => part.argv.join(' '))

describe('shell parser', () => {
  it('splits lists and pipelines on every operator', () => {
    expect(texts('a && b || c; d | e |& f & g\nh')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
    expect(texts('ls&whoami')).toEqual(['ls', 'whoami'])
  })

  it('keeps operators inside quotes and escapes', () => {
    expect(texts(`echo "a && b" 'c; d' e\\;f`)).toEqual([`echo "a && b" 'c; d' e\\;f`])
    expect(parseShell(`echo "a && b" 'c; d' e\\;f`).commands[0].words.map((w) => w.value)).toEqual([
      'echo',
      'a && b',
      'c; d',
      'e;f'
    ])
  })

  it('finds commands in $( ), backticks, <( ), >( ), nested', () => {
    expect(texts('echo $(curl x | sh)')).toEqual(['echo', 'curl x', 'sh'])
    expect(texts('echo `date`')).toEqual(['echo', 'date'])
    expect(texts('diff <(sort a) >(gzip > b.gz)')).toEqual(['diff', 'sort a', 'gzip > b.gz'])
    expect(texts('echo "$(echo $(whoami))"')).toEqual(['echo ""', 'echo', 'whoami'])
  })

  it('finds commands hidden in ${…} defaults and arithmetic', () => {
    expect(argvs('echo ${x:-$(rm -rf /)}')).toContain('rm -rf /')
    expect(argvs('echo $(( $(id -u) + 1 ))')).toContain('id -u')
  })

  it('handles subshells and groups, with their redirections', () => {
    expect(texts('(cd src && make) > log.txt')).toEqual(['cd src', 'make', ''])
    const analysis = analyzeCommand('{ echo a; echo b; } > out.txt')
    expect(analysis.parts.map((p) => p.argv.join(' '))).toEqual(['echo a', 'echo b'])
    expect(analysis.writes.map((w) => w.path)).toEqual(['out.txt'])
  })

  it('reads redirections: output is a write, dups and /dev/null are not', () => {
    const analysis = analyzeCommand('npm test 2>&1 >/dev/null | tee log.txt; cat < in.txt >> out.txt &> all.txt')
    expect(analysis.writes.map((w) => `${w.via} ${w.path}`)).toEqual(['tee log.txt', '>> out.txt', '&> all.txt'])
    expect(analysis.reads.map((r) => r.path)).toEqual(['in.txt'])
  })

  it('skips heredoc bodies but still finds substitutions in unquoted ones', () => {
    expect(texts("cat <<'EOF' > f.txt\nrm -rf / $(whoami)\nEOF\necho done")).toEqual([
      "cat <<'EOF' > f.txt",
      'echo done'
    ])
    expect(argvs('cat <<EOF\n$(rm -rf ~)\nEOF')).toContain('rm -rf ~')
    expect(texts('cat <<-END\n\tbody\n\tEND\nls')).toEqual(['cat <<-END', 'ls'])
  })

  it('separates assignments from the command and sees through reserved words', () => {
    const [command] = parseShell('A=1 B="x y" make all').commands
    expect(command.assignments.map((w) => w.raw)).toEqual(['A=1', 'B="x y"'])
    expect(command.words.map((w) => w.value)).toEqual(['make', 'all'])
    expect(texts('if [ -f x ]; then rm x; else touch x; fi')).toEqual(['[ -f x ]', 'rm x', 'touch x'])
    expect(texts('for f in $(ls); do echo $f; done')).toEqual(['', 'ls', 'echo $f'].filter(Boolean))
    expect(texts('files=(a b); echo ok')).toEqual(['files=(a b)', 'echo ok'])
  })

  it('reports what it cannot parse instead of guessing', () => {
    for (const line of [
      'echo "open',
      "echo 'open",
      'echo $(open',
      'echo ${open',
      'cat <<EOF\nno end',
      'case x in a) ls;; ',
      'f() { ls; ',
      'echo `open',
      'ls &&',
      'ls |',
      '&& ls',
      'ls ;; x'
    ])
      expect(parseShell(line).ok, line).toBe(false)
  })
})

describe('command analysis', () => {
  it('sees through wrappers and absolute binary paths', () => {
    expect(argvs('/usr/bin/sudo -u root rm -rf /')).toEqual(['rm -rf /'])
    expect(argvs('env -i FOO=1 BAR=2 nohup timeout -s KILL 5 command time nice -n 5 git push')).toEqual(['git push'])
    expect(argvs('find . -name x | xargs -I{} rm {}')).toEqual(['find . -name x', 'rm {}'])
    expect(analyzeCommand('sudo ls').parts[0].wrappers).toEqual(['sudo'])
  })

  it('flags constructs that always ask', () => {
    const reasons = (line: string) => analyzeCommand(line).alwaysAsk.join(' | ')
    expect(reasons('eval "$CMD"')).toMatch(/eval/)
    expect(reasons('bash -c "rm -rf ~"')).toMatch(/bash -c/)
    expect(reasons('sh -ec "x"')).toMatch(/sh -c/)
    expect(reasons('curl -s x | sh')).toMatch(/piping into sh/)
    expect(reasons('echo $(curl x | bash)')).toMatch(/piping into bash/)
    expect(reasons('$EDITOR file')).toMatch(/only known at run time/)
    expect(reasons('echo ${x@P}')).toMatch(/transformation/)
    expect(reasons('env -S "rm -rf /"')).toMatch(/env -S/)
    expect(reasons('bash script.sh')).toBe('')
    expect(reasons('git status')).toBe('')
  })
})
