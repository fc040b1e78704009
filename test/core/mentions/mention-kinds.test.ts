import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createMentionPort } from '../../../src/main/core/mentions/mention-registry'
import type { MentionScope } from '../../../src/main/core/ports/mention-port'
import { createTerminalService } from '../../../src/main/core/terminal'
import { createWorkspace } from '../../../src/main/core/workspace'
import { attachmentBlock, parseMentions } from '../../../src/shared/mentions/mentions'

const temp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const dataDir = temp('modus-mention-data-')
const terminals = createTerminalService({ dataDir, emit: () => undefined, shell: '/bin/bash', loadUserRc: false })
afterAll(() => terminals.dispose())

/** A real workspace folder with the given files, and the scope a message's mentions are read in. */
async function workspaceWith(files: Record<string, string | Buffer>): Promise<{ root: string; scope: MentionScope }> {
  const root = temp('modus-mention-ws-')
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  const workspace = await createWorkspace({ root })
  const scope: MentionScope = {
    taskId: 'task-1',
    workspace,
    terminal: terminals.forTask('task-1', root),
    signal: new AbortController().signal,
    approveUrl: async () => ({ approved: false, reason: 'not in this test' })
  }
  return { root, scope }
}

const port = createMentionPort()

describe('parsing', () => {
  it('finds mentions after whitespace, not inside addresses, and leaves sentence punctuation out', () => {
    const tokens = parseMentions(
      'Compare @src/a.ts, @docs/ and @terminal; mail me@example.com (@git-changes) @https://x.test/a?b=1.'
    )
    expect(tokens.map((t) => t.mention)).toEqual([
      { kind: 'file', path: 'src/a.ts' },
      { kind: 'folder', path: 'docs' },
      { kind: 'terminal' },
      { kind: 'git-changes' },
      { kind: 'url', url: 'https://x.test/a?b=1' }
    ])
  })
})

describe('@file and @folder/', () => {
  it('attaches the file with line numbers, delimited, and a folder as its listing', async () => {
    const { scope } = await workspaceWith({ 'src/main.ts': 'const a = 1\nexport default a\n', 'src/util.ts': '' })
    const [file, folder] = await port.expand('see @src/main.ts and @src/', scope)
    expect(file).toMatchObject({ raw: 'src/main.ts', kind: 'file', ok: true })
    expect(file.text).toBe('File: src/main.ts\n1 | const a = 1\n2 | export default a')
    expect(attachmentBlock(file)).toBe(`<mention path="src/main.ts">\n${file.text}\n</mention>`)
    expect(folder).toMatchObject({ kind: 'folder', ok: true })
    expect(folder.text).toBe('Contents of src:\nsrc/main.ts\nsrc/util.ts')
  })

  it('says why a missing, binary, ignored or long file attaches nothing or is cut', async () => {
    const long = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n')
    const { scope } = await workspaceWith({
      'logo.bin': Buffer.from([0, 1, 2, 0, 255, 0]),
      'secret/key.txt': 'hunter2',
      '.modusignore': 'secret/\n',
      'long.txt': long
    })
    const [missing, binary, ignored, cut] = await port.expand('@nope.ts @logo.bin @secret/key.txt @long.txt', scope)
    expect(missing).toEqual({
      raw: 'nope.ts',
      kind: 'file',
      ok: false,
      text: 'nope.ts does not exist in the workspace.'
    })
    expect(binary.ok).toBe(false)
    expect(binary.text).toMatch(/binary file/)
    expect(ignored).toMatchObject({ ok: false, text: 'secret/key.txt is excluded by .modusignore/.rooignore.' })
    expect(JSON.stringify(ignored)).not.toContain('hunter2')
    expect(cut.ok).toBe(true)
    expect(cut.text).toContain('2000 | line 2000')
    expect(cut.text).not.toContain('line 2001')
    expect(cut.text).toContain('(Showing lines 1-2000 of 2500; read_file with offset=2001 reads on.)')
    expect(attachmentBlock(missing)).toBe(
      '<mention path="nope.ts" attached="no">nope.ts does not exist in the workspace.</mention>'
    )
  })

  it('attaches nothing outside the workspace: `..` and a symbolic link that leads out', async () => {
    const outside = temp('modus-mention-outside-')
    writeFileSync(join(outside, 'private.txt'), 'outside secret')
    const { root, scope } = await workspaceWith({ 'inside.txt': 'fine' })
    symlinkSync(join(outside, 'private.txt'), join(root, 'link.txt'))
    symlinkSync(outside, join(root, 'linkdir'))
    const name = outside.split('/').pop()
    const results = await port.expand(`@../${name}/private.txt @link.txt @linkdir/ @linkdir/private.txt`, scope)
    expect(results).toHaveLength(4)
    for (const result of results) {
      expect(result.ok).toBe(false)
      expect(result.text).toMatch(/outside the workspace/)
      expect(result.text).not.toContain('outside secret')
    }
    expect(results[1].text).toContain('a symbolic link leads out')
  })
})

describe('@git-changes', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'pipe' })

  it("attaches the working tree's diff against HEAD and names untracked files, leaving ignored files out", async () => {
    const { root, scope } = await workspaceWith({ 'a.txt': 'one\n', 'hidden/b.txt': 'old secret\n' })
    git(root, 'init', '-q')
    git(root, 'add', '.')
    git(root, 'commit', '-q', '-m', 'first')
    writeFileSync(join(root, 'a.txt'), 'one\ntwo\n')
    writeFileSync(join(root, 'hidden/b.txt'), 'new secret\n')
    writeFileSync(join(root, 'fresh.txt'), 'new file\n')
    writeFileSync(join(root, '.modusignore'), 'hidden/\n')
    await scope.workspace.reloadIgnoreRules()
    const [changes] = await port.expand('review @git-changes', scope)
    expect(changes.ok).toBe(true)
    expect(changes.text).toContain('diff --git a/a.txt b/a.txt')
    expect(changes.text).toContain('+two')
    expect(changes.text).not.toContain('secret')
    expect(changes.text).toContain('(1 changed file(s) left out: .modusignore/.rooignore excludes them.)')
    expect(changes.text).toMatch(/Untracked files \(not in the diff\):\n(.*\n)*fresh\.txt/)
  })

  it('says so outside a git repository', async () => {
    const { scope } = await workspaceWith({ 'a.txt': 'x' })
    const [changes] = await port.expand('@git-changes', scope)
    expect(changes).toMatchObject({ ok: false, text: 'the workspace is not in a git repository.' })
  })
})

describe('@terminal and @https://', () => {
  it('says when the task has run no command, and when a page cannot be fetched here', async () => {
    const { scope } = await workspaceWith({})
    const [terminal, page] = await port.expand('@terminal @http://127.0.0.1:1/', scope)
    expect(terminal).toMatchObject({ ok: false, text: 'this task has not run a command in its terminal yet.' })
    expect(page).toMatchObject({
      ok: false,
      kind: 'url',
      text: 'pages cannot be fetched here (no browser in this host).'
    })
  })
})
