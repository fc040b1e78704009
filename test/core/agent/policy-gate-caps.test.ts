import { describe, expect, it } from 'vitest'
import { createPolicyGate } from '../../../src/main/core/loop/policy-gate'
import { GlobalPolicy } from '../../../src/main/core/settings/settings-schema'
import type { ResolvedMode } from '../../../src/shared/modes/schema'

const mode = (origin: ResolvedMode['origin'], autoApprove: ResolvedMode['autoApprove']): ResolvedMode => ({
  slug: `m-${origin}`,
  name: 'M',
  roleDefinition: 'r',
  groups: ['read'],
  autoApprove,
  origin,
  overridesBuiltIn: false
})

/** The limits the running loop uses, for a mode, with the user's global caps of 10 requests and $2. */
function loopLimits(m: ResolvedMode, trusted: boolean) {
  const gate = createPolicyGate({
    modes: () => [m],
    policy: () => GlobalPolicy.parse({ maxRequests: 10, maxCostUsd: 2 }),
    isTrusted: () => trusted
  })
  return gate.limits(m.slug)
}

describe('caps from a project file only tighten', () => {
  for (const trusted of [false, true]) {
    it(`a project mode cannot raise the request or cost cap (${trusted ? 'trusted' : 'untrusted'})`, () => {
      const raising = mode('project', { maxRequests: 1000, maxCostUsd: 500 })
      expect(loopLimits(raising, trusted)).toMatchObject({ maxRequests: 10, maxCostUsd: 2 })
    })

    it(`a project mode may lower both caps (${trusted ? 'trusted' : 'untrusted'})`, () => {
      const lowering = mode('project', { maxRequests: 3, maxCostUsd: 0.5 })
      expect(loopLimits(lowering, trusted)).toMatchObject({ maxRequests: 3, maxCostUsd: 0.5 })
    })
  }

  it("the user's own modes set their caps as they like", () => {
    expect(loopLimits(mode('global', { maxRequests: 50, maxCostUsd: 9 }), true)).toMatchObject({
      maxRequests: 50,
      maxCostUsd: 9
    })
    expect(loopLimits(mode('global', {}), true)).toMatchObject({ maxRequests: 10, maxCostUsd: 2 })
  })
})
