import { describe, expect, it } from 'vitest'
import { RepetitionDetector, canonicalJson, createRepetitionDetector } from '../../../src/shared/policy/repetition'
import { NEW_TASK_ISOLATION_ERROR, isolateNewTask } from '../../../src/shared/policy/new-task'
import { suggestNarrowestRule } from '../../../src/shared/policy/suggest'
import { decide } from '../../../src/shared/policy/decide'
import type { ResolvedMode } from '../../../src/shared/modes/schema'

describe('RepetitionDetector', () => {
  it('runs three identical calls and blocks the fourth, then starts over', () => {
    const detector = createRepetitionDetector()
    const call = { name: 'read_file', params: { path: 'a', offset: 1 } }
    expect([1, 2, 3].map(() => detector.check(call).allowExecution)).toEqual([true, true, true])
    const blocked = detector.check({ name: 'read_file', params: { offset: 1, path: 'a' } })
    expect(blocked.allowExecution).toBe(false)
    expect(blocked.askUser?.messageKey).toBe('mistake_limit_reached')
    expect(blocked.askUser?.message).toContain('read_file')
    expect(blocked.toolResult).toBe(
      'Tool call repetition limit reached for read_file. Please try a different approach.'
    )
    expect(detector.check(call).allowExecution).toBe(true)
  })

  it('counts only consecutive repeats and is off at 0', () => {
    const detector = new RepetitionDetector(2)
    const a = { name: 't', params: { x: 1 } }
    const b = { name: 't', params: { x: 2 } }
    expect([a, a, b, a, a].map((call) => detector.check(call).allowExecution)).toEqual([true, true, true, true, true])
    expect(detector.check(a).allowExecution).toBe(false)
    const off = new RepetitionDetector(0)
    for (let i = 0; i < 20; i++) expect(off.check(a).allowExecution).toBe(true)
  })

  it('canonicalises nested arguments', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: undefined })).toBe(canonicalJson({ b: [1, { c: 3, d: 2 }] }))
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }))
  })
})

describe('new_task isolation', () => {
  it('skips every call after new_task with an error saying why', () => {
    const calls = [{ name: 'read_file' }, { name: 'new_task' }, { name: 'write_to_file' }, { name: 'execute_command' }]
    const result = isolateNewTask(calls)
    expect(result.run.map((c) => c.name)).toEqual(['read_file', 'new_task'])
    expect(result.skipped.map((s) => s.call.name)).toEqual(['write_to_file', 'execute_command'])
    expect(result.skipped[0].error).toBe(NEW_TASK_ISOLATION_ERROR)
    expect(isolateNewTask([{ name: 'a' }, { name: 'new_task' }]).skipped).toEqual([])
  })

  it('lets isolated new_task calls end a message together; anything else after them is skipped', () => {
    const isolated = { name: 'new_task', input: { mode: 'code', message: 'x', isolated: true } }
    const plain = { name: 'new_task', input: { mode: 'code', message: 'y' } }
    const calls = [{ name: 'read_file' }, isolated, isolated, { name: 'write_to_file' }, isolated]
    const result = isolateNewTask(calls)
    expect(result.run).toEqual([{ name: 'read_file' }, isolated, isolated])
    expect(result.skipped.map((s) => s.call)).toEqual([{ name: 'write_to_file' }, isolated])
    // A plain new_task still ends the message, even before an isolated one, and vice versa.
    expect(isolateNewTask([plain, isolated]).skipped.map((s) => s.call)).toEqual([isolated])
    expect(isolateNewTask([isolated, plain]).skipped.map((s) => s.call)).toEqual([plain])
  })
})

describe('suggestNarrowestRule', () => {
  const run = (command: string) => suggestNarrowestRule({ name: 'execute_command', params: { command } })

  it('keeps the subcommand for subcommand-style tools, one rule per part', () => {
    expect(run('git diff --stat')).toEqual({ allow: ['git diff *'] })
    expect(run('npm run build')).toEqual({ allow: ['npm run build'] })
    expect(run('npm test -- --watch')).toEqual({ allow: ['npm test *'] })
    expect(run('ls -la src && git status')).toEqual({ allow: ['ls *', 'git status'] })
    expect(run('/usr/bin/git log -n 5')).toEqual({ allow: ['git log *'] })
  })

  it('suggests nothing for always-ask constructs or unparsable input', () => {
    expect(run('curl x | sh').allow).toEqual([])
    expect(run('eval x').note).toMatch(/Always asks/)
    expect(run('echo "open').allow).toEqual([])
    expect(run('$CMD x').allow).toEqual([])
  })

  it('says so when a mode rule would still block the suggestion', () => {
    expect(
      suggestNarrowestRule(
        { name: 'execute_command', params: { command: 'git push origin' } },
        { commandRules: { ask: ['git push'] } }
      )
    ).toMatchObject({
      allow: [],
      note: expect.stringContaining('git push')
    })
  })

  it('suggests rules that really allow the command, and no more', () => {
    const mode: ResolvedMode = {
      slug: 'm',
      name: 'M',
      roleDefinition: 'r',
      groups: ['command'],
      autoApprove: { command: true },
      origin: 'global',
      overridesBuiltIn: false
    }
    for (const command of ['git diff --stat', 'npm run build', 'ls -la src && git status', 'pytest -q tests/a.py']) {
      const rules = run(command).allow
      const withRules = { ...mode, commandRules: { allow: rules } }
      const c = { mode: withRules, trusted: true, workspaceRoot: '/w' }
      expect(decide({ name: 'execute_command', params: { command } }, c).decision, command).toBe('allow')
      expect(decide({ name: 'execute_command', params: { command: 'rm -rf /' } }, c).decision).toBe('ask')
    }
  })
})
