import { describe, expect, it } from 'vitest'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'
import { createCounter } from './counts'
import { DEFAULT_MODE_SLUG } from '../../src/shared/modes/builtin'
import { resolveModeDetails, selectModePrompt, type PromptOverride } from '../../src/shared/modes/resolve'
import type { ModeConfig } from '../../src/shared/modes/schema'

interface Vector {
  id: string
  kind: 'selection' | 'full_details' | 'builtin_mode'
  modeSlug: string
  promptComponent?: PromptOverride | null
  customModes?: ModeConfig[] | null
  customModePrompts?: Record<string, PromptOverride> | null
  expect?: {
    roleDefinition?: string
    baseInstructions?: string
    baseInstructionsIncludes?: string[]
    customInstructions?: string
    matchObject?: Record<string, unknown>
  }
}

const rooModes: ModeConfig[] = sharedPresent
  ? readSharedJson<{ modes: ModeConfig[] }>('conformance/roo/modes.json').modes
  : []
const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/mode-selection.json') : []

/** The resolution rules are Modus's; the mode texts under test are Roo's, fed in from modes.json. */
function skipReason(vector: Vector): string | undefined {
  if (vector.kind === 'builtin_mode')
    return "checks Roo's own built-in debug mode text; Modus writes its own role definitions"
  const known =
    rooModes.some((mode) => mode.slug === vector.modeSlug) ||
    (vector.customModes ?? []).some((mode) => mode.slug === vector.modeSlug)
  if (!known) return `falls back to Roo's default mode 'architect'; Modus's default mode is '${DEFAULT_MODE_SLUG}'`
  return undefined
}

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: mode-selection.json'), () => {
  const counter = createCounter('mode-selection.json')
  for (const vector of vectors) {
    counter.vector()
    const reason = skipReason(vector)
    if (reason) {
      counter.skip()
      it.skip(`${vector.id} — skipped: ${reason}`, () => {})
      continue
    }
    it(vector.id, () => {
      const expected = vector.expect ?? {}
      if (vector.kind === 'selection') {
        const selected = selectModePrompt(vector.modeSlug, {
          builtIns: rooModes,
          customModes: vector.customModes ?? undefined,
          override: vector.promptComponent ?? undefined
        })
        if (expected.roleDefinition !== undefined) expect(selected.roleDefinition).toBe(expected.roleDefinition)
        if (expected.baseInstructions !== undefined) expect(selected.baseInstructions).toBe(expected.baseInstructions)
        for (const fragment of expected.baseInstructionsIncludes ?? [])
          expect(selected.baseInstructions).toContain(fragment)
      } else {
        const details = resolveModeDetails(vector.modeSlug, {
          builtIns: rooModes,
          customModes: vector.customModes ?? undefined,
          overrides: vector.customModePrompts ?? undefined
        })
        if (expected.matchObject) expect(details).toMatchObject(expected.matchObject)
        if (expected.roleDefinition !== undefined) expect(details.roleDefinition).toBe(expected.roleDefinition)
        if (expected.customInstructions !== undefined)
          expect(details.customInstructions).toBe(expected.customInstructions)
      }
      counter.pass()
    })
  }
})
