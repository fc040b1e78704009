import { describe, expect, it } from 'vitest'
import { parseShell } from '../../../src/shared/policy/shell/parser'
import { decideCommand, type RuleSet } from '../../../src/shared/policy/commands'

function prng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ALPHABET = [
  'a',
  'b',
  ' ',
  ' ',
  ';',
  '&',
  '|',
  '(',
  ')',
  '{',
  '}',
  '$',
  '`',
  '"',
  "'",
  '\\',
  '<',
  '>',
  '\n',
  '#',
  '=',
  '*',
  '-',
  '1',
  '!',
  '[',
  ']',
  'EOF'
]

describe('shell parser robustness (property)', () => {
  it('never throws and always ends on arbitrary input', () => {
    const random = prng(7)
    for (let run = 0; run < 3000; run++) {
      let line = ''
      const length = Math.floor(random() * 40)
      for (let i = 0; i < length; i++) line += ALPHABET[Math.floor(random() * ALPHABET.length)]
      const parsed = parseShell(line)
      expect(Array.isArray(parsed.commands)).toBe(true)
      expect(() => decideCommand(line, [{ origin: 't', rules: { allow: ['*'] }, allowApplies: true }])).not.toThrow()
    }
  })
})

describe('a denied command is found wherever it hides (property)', () => {
  const sets: RuleSet[] = [{ origin: 't', rules: { allow: ['*'], deny: ['rm -rf /'] }, allowApplies: true }]
  const safe = ['ls -la', 'git status', 'echo hi', 'npm test', 'cat README.md']
  const operators = [' && ', ' || ', '; ', ' | ', ' & ', '\n']
  const hide: Array<(cmd: string) => string> = [
    (c) => c,
    (c) => `echo $(${c})`,
    (c) => `echo \`${c}\``,
    (c) => `(${c})`,
    (c) => `{ ${c}; }`,
    (c) => `diff <(${c}) x`,
    (c) => `sudo ${c}`,
    (c) => `/usr/bin/env -i A=1 ${c}`,
    (c) => `nohup timeout 5 ${c}`,
    (c) => `echo "$(${c})"`,
    (c) => `x=$(${c})`,
    (c) => `echo \${v:-$(${c})}`,
    (c) => `if true; then ${c}; fi`,
    (c) => `cat <<EOF\n$(${c})\nEOF`,
    (c) => `find . -exec ${c} \\;`
  ]
  it('denies rm -rf / in any position and wrapping', () => {
    const random = prng(11)
    for (let run = 0; run < 1500; run++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => safe[Math.floor(random() * safe.length)])
      const wrap = hide[Math.floor(random() * hide.length)]
      parts.splice(Math.floor(random() * (parts.length + 1)), 0, wrap('rm -rf /'))
      let line = parts[0]
      for (let i = 1; i < parts.length; i++) line += operators[Math.floor(random() * operators.length)] + parts[i]
      expect(decideCommand(line, sets).decision, line).toBe('deny')
    }
  })
})
