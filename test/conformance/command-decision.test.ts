import { describe, expect, it } from 'vitest'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'
import { createCounter } from './counts'
import { COMMAND_DECISION_SKIPS } from './command-decision-skips'
import { decideCommand, type Decision } from '../../src/shared/policy/commands'
import { parseShell } from '../../src/shared/policy/shell/parser'
import { containsDangerousSubstitution } from '../../src/shared/policy/shell/dangerous'

interface Vector {
  id: string
  kind:
    | 'decision'
    | 'single_decision'
    | 'auto_approved_single'
    | 'auto_denied_single'
    | 'longest_prefix'
    | 'dangerous_substitution'
    | 'parse'
    | 'suggest_patterns'
  command: string | null
  allowed?: string[] | null
  denied?: string[] | null
  expect?: unknown
  expectNot?: string[]
  expectNoThrow?: boolean
}

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/command-decision.json') : []

const ROO_NAMES: Record<Decision, string> = { allow: 'auto_approve', deny: 'auto_deny', ask: 'ask_user' }

/** Kinds with no Modus counterpart: their listed vectors are skipped without running anything. */
const KINDS_WITHOUT_COUNTERPART = new Set<Vector['kind']>(['longest_prefix', 'suggest_patterns'])

function modusDecision(vector: Vector) {
  return decideCommand(
    vector.command ?? '',
    [{ origin: 'vector', rules: { allow: vector.allowed ?? [], deny: vector.denied ?? [] }, allowApplies: true }],
    true
  )
}

function expectedOf(vector: Vector): { equal?: string; not?: string[] } {
  switch (vector.kind) {
    case 'auto_approved_single':
      return vector.expect ? { equal: 'auto_approve' } : { not: ['auto_approve'] }
    case 'auto_denied_single':
      return vector.expect ? { equal: 'auto_deny' } : { not: ['auto_deny'] }
    default:
      return vector.expect !== undefined ? { equal: vector.expect as string } : { not: vector.expectNot ?? [] }
  }
}

/** Whether Modus agrees with the vector (parse and decision kinds). */
function agreesWith(vector: Vector): boolean {
  if (vector.kind === 'dangerous_substitution')
    return containsDangerousSubstitution(vector.command ?? '') === vector.expect
  if (vector.kind === 'parse') {
    const parsed = parseShell(vector.command ?? '')
    const texts = parsed.commands.map((command) => command.text).filter((text) => text !== '')
    return !vector.expect || (parsed.ok && JSON.stringify(texts) === JSON.stringify(vector.expect))
  }
  const expected = expectedOf(vector)
  const got = ROO_NAMES[modusDecision(vector).decision]
  return expected.equal !== undefined ? got === expected.equal : !(expected.not ?? []).includes(got)
}

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: command-decision.json'), () => {
  const counter = createCounter('command-decision.json')
  for (const vector of vectors) {
    counter.vector()
    const listed = COMMAND_DECISION_SKIPS[vector.id]
    if (listed) {
      counter.skip()
      it.skip(`${vector.id} — skipped: ${listed}`, () => {})
      continue
    }
    if (vector.kind === 'dangerous_substitution') {
      it(vector.id, () => {
        expect(containsDangerousSubstitution(vector.command ?? '')).toBe(vector.expect)
        counter.pass()
      })
      continue
    }
    if (vector.kind === 'parse') {
      it(vector.id, () => {
        const parsed = parseShell(vector.command ?? '')
        expect(Array.isArray(parsed.commands)).toBe(true)
        if (vector.expect) {
          expect(parsed.ok).toBe(true)
          expect(parsed.commands.map((command) => command.text).filter((text) => text !== '')).toEqual(vector.expect)
        }
        counter.pass()
      })
      continue
    }
    it(`${vector.id} (${JSON.stringify(vector.command).slice(0, 60)})`, () => {
      const expected = expectedOf(vector)
      const got = ROO_NAMES[modusDecision(vector).decision]
      if (expected.equal !== undefined) expect(got).toBe(expected.equal)
      else expect(expected.not).not.toContain(got)
      counter.pass()
    })
  }

  it('lists only vectors that exist and still differ (a fixed difference leaves the list)', () => {
    const byId = new Map(vectors.map((vector) => [vector.id, vector]))
    for (const id of Object.keys(COMMAND_DECISION_SKIPS)) {
      const vector = byId.get(id)
      expect(vector, id).toBeDefined()
      if (vector && !KINDS_WITHOUT_COUNTERPART.has(vector.kind)) expect(agreesWith(vector), id).toBe(false)
    }
  })
})
