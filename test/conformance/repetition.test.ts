import { describe, expect, it } from 'vitest'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'
import { createCounter } from './counts'
import { RepetitionDetector } from '../../src/shared/policy/repetition'

interface Vector {
  id: string
  limit: number | null
  calls: Array<{ name: string; params: unknown; nativeArgs?: Record<string, unknown> }>
  expect: Array<{ allow?: boolean; askUser?: boolean; messageKey?: string; messageDetailIncludes?: string[] } | null>
  blockedAtCalls: number[]
}

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/repetition.json') : []

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: repetition.json'), () => {
  const counter = createCounter('repetition.json')
  for (const vector of vectors) {
    counter.vector()
    it(vector.id, () => {
      const detector = vector.limit === null ? new RepetitionDetector() : new RepetitionDetector(vector.limit)
      vector.calls.forEach((call, index) => {
        // Roo compares nativeArgs too when present: Modus's params are the native args.
        const params =
          call.nativeArgs && Object.keys(call.nativeArgs).length > 0
            ? { params: call.params, nativeArgs: call.nativeArgs }
            : call.params
        const result = detector.check({ name: call.name, params })
        const expected = vector.expect[index]
        expect(result.allowExecution).toBe(!vector.blockedAtCalls.includes(index + 1))
        if (!expected) return
        if (expected.allow !== undefined) expect(result.allowExecution).toBe(expected.allow)
        if (expected.askUser !== undefined) expect(result.askUser !== undefined).toBe(expected.askUser)
        if (expected.messageKey) expect(result.askUser?.messageKey).toBe(expected.messageKey)
        for (const fragment of expected.messageDetailIncludes ?? []) expect(result.askUser?.message).toContain(fragment)
      })
      counter.pass()
    })
  }
})
