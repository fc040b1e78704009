import { afterAll, describe, expect, it } from 'vitest'
import {
  applyChunksToContent,
  applyPatch,
  parsePatch,
  patchDisplayPath,
  seekSequence,
  type PatchChunk
} from '../../src/shared/diff'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'

type Vector = { id: string; kind: string } & Record<string, any>

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/apply-patch.json') : []
let passed = 0

function errorOf(fn: () => unknown): Error | null {
  try {
    fn()
    return null
  } catch (e) {
    return e as Error
  }
}

const run: Record<string, (v: Vector) => void> = {
  parse(v) {
    if (v.expect.error) {
      const err = errorOf(() => parsePatch(v.patch))
      expect(err?.name).toBe(v.expect.error)
      for (const s of v.expect.errorIncludes ?? []) expect(err!.message).toContain(s)
      return
    }
    const hunks = parsePatch(v.patch)
    if (v.expect.hunkCount !== undefined) expect(hunks.length).toBe(v.expect.hunkCount)
    if (v.expect.hunks) expect(hunks).toEqual(v.expect.hunks)
  },
  apply_chunks(v) {
    const go = (): string => applyChunksToContent(v.original, v.path, v.chunks as PatchChunk[])
    if (v.expect.error) {
      const err = errorOf(go)
      expect(err?.name).toBe(v.expect.error)
      for (const s of v.expect.errorIncludes ?? []) expect(err!.message).toContain(s)
      return
    }
    expect(go()).toBe(v.expect.content)
  },
  seek(v) {
    expect(seekSequence(v.lines, v.pattern, v.start, v.eof)).toBe(v.expect)
  },
  apply_patch(v) {
    const files: Record<string, string> = v.files
    const go = () => applyPatch(v.patch, (p) => files[p] ?? null)
    if (v.expect.error) {
      const err = errorOf(go)
      expect(err).not.toBeNull()
      for (const s of v.expect.errorIncludes ?? []) expect(err!.message).toContain(s)
      return
    }
    const result = { ...files }
    for (const change of go()) {
      if (change.type === 'delete') delete result[change.path]
      else if (change.type === 'add') result[change.path] = change.content
      else {
        if (change.movePath) delete result[change.path]
        result[change.movePath ?? change.path] = change.content
      }
    }
    expect(result).toEqual(v.expect.files)
  },
  streaming_display_path(v) {
    expect(patchDisplayPath(v.partialPatch, v.workspaceRoot)).toBe(v.expect.displayPath)
  }
}

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: apply-patch.json'), () => {
  afterAll(() => console.log(`apply-patch.json: ${passed} passed of ${vectors.length}`))
  for (const v of vectors) {
    it(`${v.kind}: ${v.id}`, () => {
      run[v.kind](v)
      passed++
    })
  }
})
