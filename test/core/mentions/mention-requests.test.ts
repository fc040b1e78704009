import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMentionHandlers } from '../../../src/main/core/mentions/mention-handlers'
import { createWorkspace } from '../../../src/main/core/workspace'
import { rankPaths } from '../../../src/shared/mentions/fuzzy'

function folderWith(files: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-complete-')))
  for (const path of files) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), 'x')
  }
  return root
}

describe('mentions:complete', () => {
  it('offers matching files and folders best first, and none that the ignore files hide', async () => {
    const root = folderWith(['src/main.ts', 'src/map.ts', 'docs/manual.md', 'secret/main.key', 'build/out.js'])
    writeFileSync(join(root, '.modusignore'), 'secret/\n')
    writeFileSync(join(root, '.gitignore'), 'build/\n')
    const handlers = createMentionHandlers({
      workspace: (dir) => createWorkspace({ root: dir }),
      currentWorkspace: () => root
    })
    const { candidates } = await handlers['mentions:complete']({ query: 'src/ma' })
    expect(
      candidates
        .slice(0, 2)
        .map((c) => c.path)
        .sort()
    ).toEqual(['src/main.ts', 'src/map.ts'])
    expect(candidates.map((c) => c.path)).not.toContain('secret/main.key')
    const all = await handlers['mentions:complete']({ query: '' })
    const paths = all.candidates.map((c) => c.path)
    expect(paths).toContain('src')
    expect(all.candidates.find((c) => c.path === 'src')?.isDirectory).toBe(true)
    expect(paths.some((p) => p.startsWith('secret') || p.startsWith('build'))).toBe(false)
  })

  it('answers nothing without an open folder', async () => {
    const handlers = createMentionHandlers({
      workspace: (dir) => createWorkspace({ root: dir }),
      currentWorkspace: () => null
    })
    expect(await handlers['mentions:complete']({ query: 'a' })).toEqual({ candidates: [], truncated: false })
  })

  it('ranks by subsequence, caps the list and says more matched', () => {
    const items = Array.from({ length: 120 }, (_, i) => ({ path: `pkg${i}/index.ts` }))
    const { ranked, truncated } = rankPaths(items, 'idx', 50)
    expect(ranked).toHaveLength(50)
    expect(truncated).toBe(true)
    expect(rankPaths(items, 'zzz', 50).ranked).toEqual([])
  })
})
