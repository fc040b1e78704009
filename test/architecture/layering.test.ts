import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM helper shared with `node scripts/layering.mjs`
import { findLayeringViolations, readSourceTree, KNOWN_CROSS_FEATURE_IMPORTS } from '../../scripts/layering.mjs'

type Options = { knownCrossFeature?: string[]; checkStale?: boolean }
const check = findLayeringViolations as (files: Record<string, string>, options?: Options) => string[]
const knownCrossFeature = KNOWN_CROSS_FEATURE_IMPORTS

describe('layering', () => {
  it('the source tree follows the layer rules, and the known cross-feature imports are all still there', () => {
    expect(check(readSourceTree(resolve(__dirname, '../..')), { checkStale: true })).toEqual([])
  })

  it('allows no renderer cross-feature import (issue #27): shared code lives in common/', () => {
    expect(knownCrossFeature).toEqual([])
  })

  it('fails when the shared renderer code imports a feature, or two common folders import each other', () => {
    const violations = check({
      'src/renderer/src/common/review/review-store.ts': "import { useChat } from '../../features/chat/ChatView'\n",
      'src/renderer/src/components/FormError.tsx': "import { x } from '../features/mcp/mcp-store'\n",
      'src/renderer/src/common/approvals/a.ts': "import { b } from '../checkpoints/b'\n",
      'src/renderer/src/common/checkpoints/b.ts': "import { a } from '../approvals/a'\n",
      'src/renderer/src/common/chat/chat-store.ts': "import { a } from '../approvals/a'\n",
      'src/renderer/src/features/chat/ChatView.tsx': "import { useChat } from '../../common/chat/chat-store'\n"
    })
    expect(violations).toEqual([
      expect.stringContaining(
        "common/review/review-store.ts: imports '../../features/chat/ChatView' — src/renderer/src/common and components sit below"
      ),
      expect.stringContaining(
        "components/FormError.tsx: imports '../features/mcp/mcp-store' — src/renderer/src/common and components sit below"
      ),
      expect.stringContaining(
        "common/approvals/a.ts: imports '../checkpoints/b' — src/renderer/src/common/approvals and src/renderer/src/common/checkpoints import each other both ways"
      ),
      expect.stringContaining(
        "common/checkpoints/b.ts: imports '../approvals/a' — src/renderer/src/common/checkpoints and src/renderer/src/common/approvals import each other both ways"
      )
    ])
  })

  it('fails when two core folders import each other both ways', () => {
    const violations = check({
      'src/main/core/terminal/a.ts': "import { b } from '../workspace/b'\n",
      'src/main/core/workspace/b.ts': "import { a } from '../terminal/a'\n"
    })
    expect(violations).toHaveLength(2)
    expect(violations[0]).toContain('import each other both ways')
  })

  it('counts a folder import (its index) as an import of that folder', () => {
    const violations = check({
      'src/main/core/terminal/a.ts': "import { b } from '../workspace'\n",
      'src/main/core/workspace/index.ts': "import { a } from '../terminal/a'\n"
    })
    expect(violations).toHaveLength(2)
  })

  it('fails when approvals or ports reach up to the tools, checkpoints, sandbox, the loop or the tasks', () => {
    const violations = check({
      'src/main/core/approvals/q.ts': "import type { ToolPort } from '../ports/loop-ports'\n",
      'src/main/core/ports/p.ts':
        "import { run } from '../sandbox/command-sandbox'\nimport { x } from '../checkpoints'\n",
      'src/main/core/tools/t.ts': "import { loop } from '../loop/agent-loop'\n",
      'src/main/core/loop/l.ts': "import { tasks } from '../tasks/task-manager'\n",
      'src/main/core/checkpoints/index.ts': ''
    })
    expect(violations).toHaveLength(5)
    expect(violations.every((line) => line.includes('sits below'))).toBe(true)
  })

  it('fails when a core folder imports the composition root', () => {
    const violations = check({
      'src/main/core/tasks/t.ts': "import { createAgentServices } from '../create-agent-services'\n"
    })
    expect(violations).toEqual([expect.stringContaining('only the composition root')])
  })

  it("fails when a renderer feature imports another feature's file, unless it is a known exception", () => {
    const files = {
      'src/renderer/src/features/chat/ToolCard.tsx': "import { useApprovals } from '../approvals/approvals-store'\n",
      'src/renderer/src/features/mcp/McpView.tsx':
        "import { useChat } from '../chat/chat-store'\nimport { FormError } from '../../components/FormError'\n"
    }
    const violations = check(files, { knownCrossFeature: ['chat/ToolCard.tsx -> approvals/approvals-store'] })
    expect(violations).toEqual([
      expect.stringContaining(
        "src/renderer/src/features/mcp/McpView.tsx: imports '../chat/chat-store' — a renderer feature imports another feature's internals"
      )
    ])
    expect(check(files, { knownCrossFeature: [] })).toHaveLength(2)
  })

  it('fails when a known cross-feature import is gone but still listed', () => {
    const violations = check(
      {},
      { knownCrossFeature: ['chat/ToolCard.tsx -> approvals/approvals-store'], checkStale: true }
    )
    expect(violations).toEqual([expect.stringContaining('no longer has: remove it')])
  })

  it('fails when the core imports electron', () => {
    const violations = check({ 'src/main/core/loop/agent-loop.ts': "import { app } from 'electron'\n" })
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
    expect(check({ 'src/main/electron/window.ts': ok, 'src/main/index.ts': ok, 'src/preload/index.ts': ok })).toEqual(
      []
    )
  })

  it('fails when the Electron adapter imports from the web host', () => {
    const violations = check({
      'src/main/electron/app-security.ts': "import { CONTENT_SECURITY_POLICY } from '../web/security'\n"
    })
    expect(violations[0]).toContain('share only src/shared and the core')
  })

  it('fails when a shared file uses a Node or DOM global', () => {
    const violations = check({
      'src/shared/policy/x.ts': 'export const home = process.env.HOME\nexport const title = () => document.title\n',
      'src/shared/modes/y.ts':
        "// window in a comment, 'navigator' in a string\nconst document = { title: '' }\nexport const t = document.title\n"
    })
    expect(violations).toHaveLength(2)
    expect(violations[0]).toContain("'process'")
    expect(violations[1]).toContain("'document'")
  })
})

describe("the renderer's first chunk (issue 28 item 21)", () => {
  const main = "import { App } from './App'\nimport './styles.css'\n"

  it('fails when a module main.tsx loads statically imports zod, naming the chain', () => {
    const violations = check({
      'src/renderer/src/main.tsx': main,
      'src/renderer/src/App.tsx': "import { limits } from '../../shared/agent/limits'\n",
      'src/shared/agent/limits.ts': "import { z } from 'zod'\nexport * from './format'\n",
      'src/shared/agent/format.ts': "import { parse } from 're2js'\n"
    })
    expect(violations).toEqual([
      "src/shared/agent/limits.ts: imports 'zod', which puts it in the renderer's first chunk (src/renderer/src/main.tsx → src/renderer/src/App.tsx → src/shared/agent/limits.ts) — use `import type` for types, a module without it for constants, or load the view lazily",
      expect.stringContaining(
        "src/shared/agent/format.ts: imports 're2js', which puts it in the renderer's first chunk"
      )
    ])
  })

  it('allows zod behind a type import, a type-only list, a dynamic import, and outside the first chunk', () => {
    const violations = check({
      'src/renderer/src/main.tsx': main,
      'src/renderer/src/App.tsx': [
        "import type { Mode } from '../../shared/modes/schema'",
        "import { type Task, type Item } from '../../shared/contract/task'",
        "import { useState } from 'react'",
        "const Modes = lazy(() => import('./features/modes/ModesView'))"
      ].join('\n'),
      'src/shared/modes/schema.ts': "import { z } from 'zod'\n",
      'src/shared/contract/task.ts': "import { z } from 'zod'\n",
      'src/renderer/src/features/modes/ModesView.tsx': "import { Mode } from '../../../../shared/modes/schema'\n",
      'src/main/core/x.ts': "import { z } from 'zod'\n"
    })
    expect(violations).toEqual([])
  })

  it('fails when the first chunk imports a view the first screen does not show, naming the chain', () => {
    const views = (load: string) => ({
      'src/renderer/src/main.tsx': main,
      'src/renderer/src/App.tsx': "import { appViews } from './views'\n",
      'src/renderer/src/views.tsx': load,
      'src/renderer/src/SettingsView.tsx': "import { useState } from 'react'\n"
    })
    expect(check(views("import { SettingsView } from './SettingsView'\n"))).toEqual([
      "src/renderer/src/views.tsx: imports the view src/renderer/src/SettingsView.tsx statically, which puts it in the renderer's first chunk (src/renderer/src/main.tsx → src/renderer/src/App.tsx → src/renderer/src/views.tsx → src/renderer/src/SettingsView.tsx) — load it with `lazyView(() => import(…))` (components/lazy-view.tsx)"
    ])
    expect(
      check(views("const settings = lazyView(() => import('./SettingsView').then((m) => m.SettingsView))\n"))
    ).toEqual([])
  })
})

describe('per-environment tsconfigs', () => {
  const root = resolve(__dirname, '../..')
  const compileAsShared = (source: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-layer-'))
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: join(root, 'tsconfig.shared.json'), include: ['x.ts'] })
    )
    writeFileSync(join(dir, 'x.ts'), source)
    const tsc = spawnSync(join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', dir], { encoding: 'utf8' })
    return { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` }
  }

  it('the shared project knows neither Node nor DOM types', { timeout: 120_000 }, () => {
    const bad = compileAsShared(
      'export const home = process.env.HOME\nexport const title = (): string => document.title\n'
    )
    expect(bad.status).not.toBe(0)
    expect(bad.output).toContain("'process'")
    expect(bad.output).toContain("'document'")
    expect(compileAsShared('export const twice = (n: number): number => n * 2\n').status).toBe(0)
  })
})
