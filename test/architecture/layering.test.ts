import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
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

  it('fails when the Electron adapter imports from the web host', () => {
    const violations = check({ 'src/main/electron/app-security.ts': "import { CONTENT_SECURITY_POLICY } from '../web/security'\n" })
    expect(violations[0]).toContain('share only src/shared and the core')
  })

  it('fails when a shared file uses a Node or DOM global', () => {
    const violations = check({
      'src/shared/policy/x.ts': 'export const home = process.env.HOME\nexport const title = () => document.title\n',
      'src/shared/modes/y.ts': "// window in a comment, 'navigator' in a string\nconst document = { title: '' }\nexport const t = document.title\n"
    })
    expect(violations).toHaveLength(2)
    expect(violations[0]).toContain("'process'")
    expect(violations[1]).toContain("'document'")
  })
})

describe('per-environment tsconfigs', () => {
  const root = resolve(__dirname, '../..')
  const compileAsShared = (source: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-layer-'))
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.shared.json'), include: ['x.ts'] }))
    writeFileSync(join(dir, 'x.ts'), source)
    const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', dir], { encoding: 'utf8' })
    return { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` }
  }

  it('the shared project knows neither Node nor DOM types', { timeout: 120_000 }, () => {
    const bad = compileAsShared('export const home = process.env.HOME\nexport const title = (): string => document.title\n')
    expect(bad.status).not.toBe(0)
    expect(bad.output).toContain("'process'")
    expect(bad.output).toContain("'document'")
    expect(compileAsShared('export const twice = (n: number): number => n * 2\n').status).toBe(0)
  })
})
