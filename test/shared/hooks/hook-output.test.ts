import { describe, expect, it } from 'vitest'
import { readHookRun } from '../../../src/shared/hooks/output'
import { decideWithHooks } from '../../../src/shared/hooks/decide'
import { compileMatcher } from '../../../src/shared/hooks/schema'
import { importClaudeHooks } from '../../../src/shared/hooks/claude-import'

const exited = (stdout: string, code = 0, stderr = '') => ({ kind: 'exited' as const, code, stdout, stderr })

describe('reading a hook the way Claude Code scripts write it', () => {
  it("reads Claude Code's older decision words and Modus's own fields", () => {
    expect(readHookRun('PreToolUse', exited('{"decision":"approve","reason":"ok"}'))).toEqual({
      kind: 'allow',
      reason: 'ok'
    })
    expect(readHookRun('PreToolUse', exited('{"decision":"block","reason":"no"}'))).toEqual({
      kind: 'block',
      reason: 'no'
    })
    expect(readHookRun('PostToolUse', exited('{"note":"formatted 2 files"}'))).toEqual({
      kind: 'none',
      note: 'formatted 2 files'
    })
    expect(readHookRun('PreToolUse', exited('{"decision":"maybe"}')).kind).toBe('problem')
    expect(readHookRun('PreToolUse', exited('', 0))).toEqual({ kind: 'none' })
  })

  it('a plain-text prompt hook adds context; a plain-text tool hook is a problem', () => {
    expect(readHookRun('UserPromptSubmit', exited('Branch: main'))).toEqual({ kind: 'none', note: 'Branch: main' })
    expect(readHookRun('PostToolUse', exited('Branch: main')).kind).toBe('problem')
  })
})

describe('PreToolUse after the policy', () => {
  const allow = { hook: 'h', origin: 'global', verdict: { kind: 'allow' as const } }
  it('a hook allows an ask no rule answered, never a deny or an ask rule', () => {
    expect(decideWithHooks({ decision: 'ask', rule: 'no-matching-rule', reason: 'r' }, [allow]).decision).toBe('allow')
    expect(decideWithHooks({ decision: 'deny', rule: 'global deny "rm *"', reason: 'r' }, [allow]).decision).toBe(
      'deny'
    )
    expect(decideWithHooks({ decision: 'ask', rule: 'global ask "git push *"', reason: 'r' }, [allow]).decision).toBe(
      'ask'
    )
    expect(decideWithHooks({ decision: 'ask', rule: 'protected-path', reason: 'r' }, [allow]).decision).toBe('ask')
  })
  it('deny wins over a problem, a problem over allow', () => {
    const problem = { hook: 'p', origin: 'global', verdict: { kind: 'problem' as const, problem: 'hung' } }
    const deny = { hook: 'd', origin: 'project', verdict: { kind: 'block' as const, reason: 'no' } }
    const policy = { decision: 'ask' as const, rule: 'default-ask', reason: 'r' }
    expect(decideWithHooks(policy, [allow, problem, deny]).rule).toBe('hook:d')
    expect(decideWithHooks(policy, [allow, problem])).toMatchObject({ decision: 'ask', rule: 'hook:p' })
  })
})

describe('matchers and import', () => {
  it("match Modus's tool names and Claude Code's, as whole names", () => {
    const matcher = compileMatcher('Edit|Write')
    expect(matcher.ok && matcher.test('write_to_file')).toBe(true)
    expect(matcher.ok && matcher.test('apply_diff')).toBe(true)
    expect(matcher.ok && matcher.test('execute_command')).toBe(false)
    const exact = compileMatcher('read')
    expect(exact.ok && exact.test('read_file')).toBe(false)
    expect(compileMatcher('(').ok).toBe(false)
  })
  it('imports command hooks and says what it skipped', () => {
    const imported = importClaudeHooks({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'x' },
              { type: 'command', command: 'make check', timeout: 9000 }
            ]
          }
        ]
      }
    })
    expect(imported.ok && imported.value.file.hooks.Stop).toEqual([{ command: 'make check', timeout: 600 }])
    expect(imported.ok && imported.value.skipped).toEqual(['Stop prompt: only "command" hooks are imported'])
  })
})
