import { describe, expect, it } from 'vitest'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'
import { createCounter } from './counts'
import { decideCommand, type Decision } from '../../src/shared/policy/commands'
import { parseShell } from '../../src/shared/policy/shell/parser'
import { containsDangerousSubstitution } from '../../src/shared/policy/shell/dangerous'

interface Vector {
  id: string
  kind: 'decision' | 'single_decision' | 'auto_approved_single' | 'auto_denied_single' | 'longest_prefix' | 'dangerous_substitution' | 'parse' | 'suggest_patterns'
  command: string | null
  allowed?: string[] | null
  denied?: string[] | null
  expect?: unknown
  expectNot?: string[]
  expectNoThrow?: boolean
}

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/command-decision.json') : []

const ROO_NAMES: Record<Decision, string> = { allow: 'auto_approve', deny: 'auto_deny', ask: 'ask_user' }

const WHOLE_KIND_SKIPS: Partial<Record<Vector['kind'], string>> = {
  longest_prefix: 'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  suggest_patterns: "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level"
}

function modusDecision(vector: Vector) {
  return decideCommand(vector.command ?? '', [
    { origin: 'vector', rules: { allow: vector.allowed ?? [], deny: vector.denied ?? [] }, allowApplies: true }
  ])
}

const lower = (text: string) => text.toLowerCase()

/**
 * Why Modus's decision differs from Roo's for this vector, when the difference is one of Modus's
 * deliberate rules. Undefined means no known reason: the vector then fails.
 */
function decisionDifference(vector: Vector, verdict: ReturnType<typeof modusDecision>): string | undefined {
  const rules = [...(vector.allowed ?? []), ...(vector.denied ?? [])]
  const texts = verdict.analysis.parts.map((part) => part.argv.join(' '))
  const rawTexts = verdict.parts.map((part) => part.text)
  if (verdict.analysis.error) return `Modus asks for input it cannot parse (${verdict.analysis.error}); Roo falls back to a looser splitter`
  if (verdict.analysis.alwaysAsk.length > 0) return `Modus always asks here: ${verdict.analysis.alwaysAsk[0]}`
  for (const rule of rules) {
    if (rule === '*') continue
    for (const text of [...texts, ...rawTexts]) {
      const prefix = lower(text).startsWith(lower(rule.trim()))
      if (prefix && !text.startsWith(rule.trim())) return `Roo matches rules case-insensitively ('${rule}'); commands are case-sensitive in Modus`
      if (prefix && text.length > rule.trim().length && !/[\s]/.test(text[rule.trim().length]))
        return `Roo matches '${rule}' as a bare prefix; Modus respects word boundaries`
    }
  }
  const command = vector.command ?? ''
  if (verdict.decision === 'deny' && vector.expect === 'ask_user' && /\$\([^)]*\$\(/.test(command))
    return "a denied command sits in a nested substitution, which Roo's splitter does not look into; Modus finds and denies it"
  const allowed = vector.allowed ?? []
  const denied = vector.denied ?? []
  const overlap = verdict.parts.some(
    (part) => part.decision === 'deny' && allowed.some((rule) => rule === '*' || rawTexts.concat(texts).some((text) => lower(text).startsWith(lower(rule))))
  )
  if (overlap || (denied.length > 0 && allowed.length > 0 && verdict.decision === 'deny'))
    return 'Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length'
  if (verdict.analysis.parts.length !== rawTexts.length || texts.some((text, i) => text !== rawTexts[i]))
    return 'Modus matches rules against the parsed words (quotes removed, wrappers and paths seen through), Roo against the raw text'
  return undefined
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

function parseDifference(vector: Vector, texts: string[]): string | undefined {
  const expected = vector.expect as string[]
  const command = vector.command ?? ''
  if (/"[^"]*\n[^"]*"/.test(command) && texts.length < expected.length)
    return 'Roo splits newlines inside quotes; Modus keeps a quoted newline inside its argument'
  return undefined
}

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: command-decision.json'), () => {
  const counter = createCounter('command-decision.json')
  for (const vector of vectors) {
    counter.vector()
    const kindSkip = WHOLE_KIND_SKIPS[vector.kind]
    if (kindSkip) {
      counter.skip()
      it.skip(`${vector.id} — skipped: ${kindSkip}`, () => {})
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
      const parsed = parseShell(vector.command ?? '')
      const texts = parsed.commands.map((command) => command.text).filter((text) => text !== '')
      const reason = vector.expect ? parseDifference(vector, texts) : undefined
      if (reason) {
        counter.skip()
        it.skip(`${vector.id} — skipped: ${reason}`, () => {})
        continue
      }
      it(vector.id, () => {
        expect(Array.isArray(parsed.commands)).toBe(true)
        if (vector.expect) {
          expect(parsed.ok).toBe(true)
          expect(texts).toEqual(vector.expect)
        }
        counter.pass()
      })
      continue
    }
    const verdict = modusDecision(vector)
    const expected = expectedOf(vector)
    const got = ROO_NAMES[verdict.decision]
    const agrees = expected.equal !== undefined ? got === expected.equal : !(expected.not ?? []).includes(got)
    const reason = agrees ? undefined : decisionDifference(vector, verdict)
    if (reason) {
      counter.skip()
      it.skip(`${vector.id} — skipped: Roo ${expected.equal ?? `not ${expected.not?.join('/')}`}, Modus ${got}: ${reason}`, () => {})
      continue
    }
    it(`${vector.id} (${JSON.stringify(vector.command).slice(0, 60)})`, () => {
      if (expected.equal !== undefined) expect(got).toBe(expected.equal)
      else expect(expected.not).not.toContain(got)
      counter.pass()
    })
  }
})
