import { describe, expect, it } from 'vitest'
import { ApplyPatchError, applyChunksToContent, applyPatch, parsePatch, patchPaths } from '../../../src/shared/diff'

const patch = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`

describe('apply_patch engine', () => {
  it('adds, deletes, updates and moves files in one patch', () => {
    const files: Record<string, string> = { 'a.txt': 'one\ntwo\n', 'old.txt': 'x\ny\n', 'gone.txt': 'bye\n' }
    const text = patch(
      '*** Add File: new.txt\n+hello\n*** Delete File: gone.txt\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** Update File: old.txt\n*** Move to: moved/new-name.txt\n@@\n-y\n+Y'
    )
    const changes = applyPatch(text, (p) => files[p] ?? null)
    expect(changes).toEqual([
      { type: 'add', path: 'new.txt', content: 'hello\n', overwrites: false },
      { type: 'delete', path: 'gone.txt' },
      { type: 'update', path: 'a.txt', movePath: null, content: 'one\nTWO\n' },
      { type: 'update', path: 'old.txt', movePath: 'moved/new-name.txt', content: 'x\nY\n' }
    ])
    expect(patchPaths(parsePatch(text))).toEqual(['new.txt', 'gone.txt', 'a.txt', 'old.txt', 'moved/new-name.txt'])
  })

  it('keeps the file text for context lines and re-indents added lines when the patch is re-indented', () => {
    const original = 'function f() {\n  if (a) {\n    b()\n  }\n}\n'
    const chunks = [
      {
        changeContext: null,
        oldLines: ['    if (a) {', '        b()', '    }'],
        newLines: ['    if (a) {', '        b()', '        c()', '    }'],
        isEndOfFile: false
      }
    ]
    expect(applyChunksToContent(original, 'f.ts', chunks)).toBe(
      'function f() {\n  if (a) {\n    b()\n    c()\n  }\n}\n'
    )
  })

  it('seeks through Unicode punctuation and anchors *** End of File chunks at the end', () => {
    const original = 'say(\u201chi\u201d)\nend\nend\n'
    const out = applyChunksToContent(original, 'f', [
      { changeContext: null, oldLines: ['say("hi")'], newLines: ['say("hello")'], isEndOfFile: false },
      { changeContext: null, oldLines: ['end'], newLines: ['END'], isEndOfFile: true }
    ])
    expect(out).toBe('say("hello")\nend\nEND\n')
  })

  it('appends chunks that only add lines in the order the patch gives them', () => {
    const add = (line: string) => ({ changeContext: null, oldLines: [], newLines: [line], isEndOfFile: false })
    expect(applyChunksToContent('x\ny\n', 'f', [add('A'), add('B')])).toBe('x\ny\nA\nB\n')
    expect(
      applyChunksToContent('x\ny', 'f', [
        { changeContext: null, oldLines: ['y'], newLines: ['Y'], isEndOfFile: false },
        add('A')
      ])
    ).toBe('x\nY\nA\n')
    expect(applyChunksToContent('', 'f', [add('A')])).toBe('A\n')
  })

  it('prefers an exact match further down to a loose one nearer, and keeps CRLF files whole', () => {
    const original = 'a\r\n  b\r\nc\r\nb\r\nd\r\n'
    expect(
      applyChunksToContent(original, 'f', [
        { changeContext: null, oldLines: ['b'], newLines: ['B'], isEndOfFile: false }
      ])
    ).toBe('a\n  b\nc\nB\nd\n')
    expect(
      applyChunksToContent(original, 'f', [
        { changeContext: null, oldLines: ['  c'], newLines: ['  C'], isEndOfFile: false }
      ])
    ).toBe('a\n  b\nC\nb\nd\n')
  })

  it('fails as a whole, naming the chunk and the closest lines, when old lines are absent', () => {
    const original = 'alpha\nbeta\ngamma\n'
    let error: Error | null = null
    try {
      applyChunksToContent(original, 'g.txt', [
        { changeContext: null, oldLines: ['alpha', 'betx'], newLines: ['A'], isEndOfFile: false }
      ])
    } catch (e) {
      error = e as Error
    }
    expect(error).toBeInstanceOf(ApplyPatchError)
    expect(error!.message).toContain('chunk 1')
    expect(error!.message).toMatch(/Closest match: lines 1-2/)
  })

  it('refuses to update or delete a file that does not exist', () => {
    expect(() => applyPatch(patch('*** Delete File: nope.txt'), () => null)).toThrow(/does not exist/)
    expect(() => applyPatch(patch('*** Update File: nope.txt\n@@\n-a\n+b'), () => null)).toThrow(/does not exist/)
  })
})
