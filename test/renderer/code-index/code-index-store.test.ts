import { describe, expect, it } from 'vitest'
import type { CodeIndexStatus } from '../../../src/shared/contract/code-index'
import { nextStatus, progressLine } from '../../../src/renderer/src/features/code-index/code-index-store'

const status = (patch: Partial<CodeIndexStatus>): CodeIndexStatus => ({
  workspace: '/w/a',
  state: 'indexing',
  filesDone: 120,
  filesTotal: 400,
  chunks: 812,
  errors: 2,
  recentErrors: [],
  semantic: { state: 'embedding', chunksEmbedded: 64, chunksTotal: 812 },
  message: 'Indexing 400 files…',
  ...patch
})

describe('code index status in the UI', () => {
  it('says files done / total, chunks, errors and embedding progress in one line', () => {
    expect(progressLine(status({}))).toBe('120 / 400 files · 812 chunks · 2 errors · embedded 64 / 812')
    expect(
      progressLine(status({ errors: 0, semantic: { state: 'ready', chunksEmbedded: 812, chunksTotal: 812 } }))
    ).toBe('120 / 400 files · 812 chunks')
  })

  it('ignores a late progress event of another workspace while one is being indexed', () => {
    const current = status({})
    expect(nextStatus(current, status({ workspace: '/w/b' }))).toBe(current)
    const idle = status({ workspace: '/w/b', state: 'idle' })
    expect(nextStatus(current, idle)).toBe(idle)
  })
})
