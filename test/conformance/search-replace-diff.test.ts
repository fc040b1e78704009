import { afterAll, describe, expect, it } from 'vitest'
import { applySearchReplace } from '../../src/shared/diff'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'

interface ApplyVector {
  id: string
  kind: 'apply'
  original: string
  diff: string
  fuzzyThreshold: number
  expect: { success: boolean; content?: string; contentIncludes?: string[]; contentExcludes?: string[] }
}
interface ValidateVector {
  id: string
  kind: 'validate'
  diff: string
  expect: { valid: boolean; errorIncludes?: string[] }
}
type Vector = ApplyVector | ValidateVector

/** Vectors where Modus answers differently on purpose. */
const DIFFERENT_ON_PURPOSE: Record<string, string> = {
  'multi-search-replace/should-find-matches-from-middle-out':
    'Modus never picks one of several equal matches silently: without :start_line: it asks the model to disambiguate'
}

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/search-replace-diff.json') : []
let passed = 0

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: search-replace-diff.json'), () => {
  afterAll(() =>
    console.log(
      `search-replace-diff.json: ${passed} passed, ${Object.keys(DIFFERENT_ON_PURPOSE).length} skipped on purpose, of ${vectors.length}`
    )
  )
  for (const v of vectors) {
    const reason = DIFFERENT_ON_PURPOSE[v.id]
    if (reason) {
      it.skip(`${v.id} — skipped: ${reason}`, () => {})
      continue
    }
    it(v.id, () => {
      if (v.kind === 'validate') {
        const result = applySearchReplace('', v.diff)
        if (v.expect.valid) {
          expect(result.formatError ?? '').not.toContain('ERROR:')
        } else {
          const error = result.formatError ?? ''
          expect(error).toContain('ERROR:')
          for (const s of v.expect.errorIncludes ?? []) expect(error).toContain(s)
        }
      } else {
        const result = applySearchReplace(v.original, v.diff, { fuzzyThreshold: v.fuzzyThreshold })
        const success = result.content !== null && result.failed === 0 && result.applied > 0
        expect(success, JSON.stringify(result.blocks)).toBe(v.expect.success)
        if (v.expect.content !== undefined) expect(result.content).toBe(v.expect.content)
        for (const s of v.expect.contentIncludes ?? []) expect(result.content).toContain(s)
        for (const s of v.expect.contentExcludes ?? []) expect(result.content).not.toContain(s)
      }
      passed++
    })
  }
})
