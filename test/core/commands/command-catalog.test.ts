import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCommandCatalog, MAX_COMMAND_BYTES } from '../../../src/main/core/commands/command-catalog'

/** A project folder and an app data dir, each with its own command files. */
function setup(files: { project?: Record<string, string>; global?: Record<string, string> }) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cmd-ws-')))
  const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cmd-data-')))
  const write = (root: string, entries: Record<string, string>) => {
    for (const [path, text] of Object.entries(entries)) {
      mkdirSync(join(root, path, '..'), { recursive: true })
      writeFileSync(join(root, path), text)
    }
  }
  write(workspace, files.project ?? {})
  write(dataDir, files.global ?? {})
  return { workspace, dataDir, catalog: createCommandCatalog({ dataDir, workspace: () => workspace }) }
}

describe('slash command catalog', () => {
  it('lists the built-ins and the prompt files of the project, Roo and the app data dir with their front matter', async () => {
    const { catalog } = setup({
      project: {
        '.modus/commands/review.md':
          '---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $ARGUMENTS for bugs. Then review $ARGUMENTS again for style.\n',
        '.roo/commands/release.md': '---\ndescription: "Write release notes"\n---\nWrite the release notes.\n',
        '.roo/commands/review.md': 'Roo review, shadowed by the Modus one.\n'
      },
      global: { 'commands/explain.md': '# Explain the code\nExplain it simply.\n' }
    })
    const { commands, skipped } = await catalog.list()
    expect(commands.map((c) => `${c.source}:${c.name}`)).toEqual([
      'builtin:new',
      'builtin:mode',
      'builtin:condense',
      'builtin:checkpoint',
      'builtin:cost',
      'project:review',
      'roo:release',
      'global:explain'
    ])
    expect(commands.find((c) => c.name === 'review')).toMatchObject({
      description: 'Review a file for bugs',
      argumentHint: '<file>'
    })
    expect(commands.find((c) => c.name === 'release')?.description).toBe('Write release notes')
    expect(commands.find((c) => c.name === 'explain')?.description).toBe('Explain the code')
    expect(skipped).toEqual([
      { path: '.roo/commands/review.md', reason: '/review is already defined by an earlier folder' }
    ])

    expect(await catalog.expand('review', 'src/a.ts')).toBe(
      'Review src/a.ts for bugs. Then review src/a.ts again for style.'
    )
    expect(await catalog.expand('release', 'for 2.0')).toBe('Write the release notes.\n\nfor 2.0')
    expect(await catalog.expand('explain', '')).toBe('# Explain the code\nExplain it simply.')
  })

  it('does not read a command that links outside its folder or is too big, and no file can take a built-in name', async () => {
    const { workspace, catalog } = setup({
      project: {
        '.modus/commands/new.md': 'Not the real /new.\n',
        '.modus/commands/huge.md': 'x'.repeat(MAX_COMMAND_BYTES + 1),
        'secret.txt': 'TOP SECRET\n'
      }
    })
    symlinkSync(join(workspace, 'secret.txt'), join(workspace, '.modus/commands/leak.md'))
    const { commands, skipped } = await catalog.list()
    expect(commands.filter((c) => c.source !== 'builtin')).toEqual([])
    expect(skipped).toEqual([
      { path: '.modus/commands/huge.md', reason: `over the ${MAX_COMMAND_BYTES}-byte limit for a command` },
      { path: '.modus/commands/leak.md', reason: 'links outside its folder' },
      { path: '.modus/commands/new.md', reason: '/new is a built-in command' }
    ])
    await expect(catalog.expand('leak', '')).rejects.toMatchObject({ code: 'unknown_command' })
    await expect(catalog.expand('new', '')).rejects.toMatchObject({ code: 'builtin_command' })
  })

  it('with no folder open offers the built-ins and the user commands of the app data dir', async () => {
    const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cmd-data-')))
    mkdirSync(join(dataDir, 'commands'))
    writeFileSync(join(dataDir, 'commands', 'hello.md'), 'Say hello to $ARGUMENTS.')
    const catalog = createCommandCatalog({ dataDir, workspace: () => null })
    expect((await catalog.list()).commands.at(-1)).toMatchObject({ name: 'hello', source: 'global' })
    expect(await catalog.expand('hello', 'Ada')).toBe('Say hello to Ada.')
  })
})
