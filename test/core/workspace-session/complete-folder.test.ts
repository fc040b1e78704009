import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { completeFolderPath } from '../../../src/main/core/workspace-session/workspace-handlers'

describe('folder path completion (the browser surface has no native dialog)', () => {
  let root: string
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-complete-')))
    for (const dir of ['project-a', 'project-b', 'other', '.hidden']) mkdirSync(join(root, dir))
    writeFileSync(join(root, 'project-notes.txt'), 'not a folder')
    symlinkSync(join(root, 'other'), join(root, 'project-link'))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('lists the folders that continue the last segment, links to folders included, files left out', async () => {
    expect(await completeFolderPath(join(root, 'proj'))).toEqual([
      join(root, 'project-a'),
      join(root, 'project-b'),
      join(root, 'project-link')
    ])
  })

  it('after a separator lists the visible folders inside; hidden ones only for a dot', async () => {
    expect(await completeFolderPath(`${root}/`)).toEqual(
      ['other', 'project-a', 'project-b', 'project-link'].map((name) => join(root, name))
    )
    expect(await completeFolderPath(join(root, '.h'))).toEqual([join(root, '.hidden')])
  })

  it('offers nothing for relative paths, missing folders or a NUL', async () => {
    expect(await completeFolderPath('proj')).toEqual([])
    expect(await completeFolderPath(join(root, 'missing', 'x'))).toEqual([])
    expect(await completeFolderPath(`${root}/\0`)).toEqual([])
  })
})
