import { describe, expect, it } from 'vitest'
import { isReadOnlyCommand } from '../../../src/shared/policy/read-only-command'

describe('isReadOnlyCommand (checkpoints skip snapshots only for these)', () => {
  it.each([
    'ls -la',
    'git status --short && git diff',
    'cat a.txt | grep x | wc -l',
    'rg TODO src',
    'find . -name "*.ts"',
    'node --version',
    'echo hi'
  ])('%s reads only', (line) => {
    expect(isReadOnlyCommand(line)).toBe(true)
  })
  it.each([
    'npm install',
    'echo x > a.txt',
    'cat a | tee out.txt',
    'find . -name "*.tmp" -delete',
    'git checkout -- .',
    'sort -o out.txt in.txt',
    'sudo ls',
    'ls; rm -rf build',
    'prettier --write .',
    'bash -c "ls"',
    'ls $(touch x)',
    'unknown-tool'
  ])('%s may write', (line) => {
    expect(isReadOnlyCommand(line)).toBe(false)
  })
})
