import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `node scripts/layering.mjs`
import { findLayeringViolations, readSourceTree } from '../../scripts/layering.mjs'

const check = findLayeringViolations as (files: Record<string, string>) => string[]

describe('layering', () => {
  it('the source tree follows the layer rules', () => {
    expect(check(readSourceTree(resolve(__dirname, '../..')))).toEqual([])
  })

  it('fails when the core imports electron', () => {
    const violations = check({ 'src/main/core/agent/loop.ts': "import { app } from 'electron'\n" })
    expect(violations).toHaveLength(1)
    expect(violations[0]).toContain('only src/main/electron')
  })

  it('fails when src/shared imports a Node built-in, directly or as node:*', () => {
    const violations = check({
      'src/shared/policy/x.ts': "import { readFileSync } from 'fs'\nimport path from 'node:path'\n"
    })
    expect(violations).toHaveLength(2)
  })

  it('fails when the renderer reaches into the main process', () => {
    const violations = check({ 'src/renderer/src/x.ts': "import { createCore } from '../../main/core/create-core'\n" })
    expect(violations[0]).toContain('only through the contract')
  })

  it('allows electron in the adapter, the composition root and the preload', () => {
    const ok = "import { app } from 'electron'\n"
    expect(
      check({ 'src/main/electron/window.ts': ok, 'src/main/index.ts': ok, 'src/preload/index.ts': ok })
    ).toEqual([])
  })
})
