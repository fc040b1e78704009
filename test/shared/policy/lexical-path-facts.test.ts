import { describe, expect, it } from 'vitest'
import { lexicalPathFacts } from '../../../src/shared/policy/paths'

// A folder whose name starts with the workspace's name is a sibling, not a part of it.
describe('lexical path facts: the workspace boundary is a whole path segment', () => {
  it('judges a sibling that shares the prefix (/ws-evil beside /ws) outside', () => {
    for (const path of ['/ws-evil', '/ws-evil/secret.txt', '../ws-evil/secret.txt', '/wsx/a', '../ws2']) {
      expect(lexicalPathFacts(path, '/ws'), path).toEqual({ outsideWorkspace: true })
    }
  })

  it('judges the workspace itself and what is below it inside', () => {
    expect(lexicalPathFacts('/ws', '/ws')).toEqual({ relPath: '.', outsideWorkspace: false })
    expect(lexicalPathFacts('/ws/ws-evil/a', '/ws')).toEqual({ relPath: 'ws-evil/a', outsideWorkspace: false })
    expect(lexicalPathFacts('src/../lib/a.ts', '/ws/')).toEqual({ relPath: 'lib/a.ts', outsideWorkspace: false })
  })
})
