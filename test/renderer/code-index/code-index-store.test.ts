import { describe, expect, it } from 'vitest'
import type { CodeIndexStatus } from '../../../src/shared/contract/code-index'
import {
  nextStatus,
  progressLine,
  useCodeIndexStore
} from '../../../src/renderer/src/features/code-index/code-index-store'

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

  // The first screen reads the status before its first render and the status bar reads it again
  // when it mounts: the same answer twice must not render the screen a second time.
  it('an answer equal to the status shown changes nothing; a new one does', () => {
    useCodeIndexStore.setState({ status: null })
    let changes = 0
    const stop = useCodeIndexStore.subscribe(() => changes++)
    useCodeIndexStore.getState().setStatus(status({}))
    useCodeIndexStore.getState().setStatus(status({}))
    useCodeIndexStore.getState().setStatus(status({ filesDone: 121 }))
    stop()
    expect(changes).toBe(2)
    expect(useCodeIndexStore.getState().status?.filesDone).toBe(121)
  })
})
