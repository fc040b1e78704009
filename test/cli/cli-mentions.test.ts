import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSessionPerTest, runCliOnTerminal as onTerminal } from '../support/cli-terminal'
import { lastUserText } from '../support/fake-provider'

// `modus run "… @path …"` on a real terminal: the mentions expand as in the app.

const start = cliSessionPerTest('cli mentions')

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'pipe' })

describe('modus run with @-mentions', { timeout: 120_000 }, () => {
  it('attaches @file, @folder/ and @git-changes to the message the model gets; an escaping path is refused on the terminal', async () => {
    const { fake, workspace, env } = await start([
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Explained.' } }] }
    ])
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-outside-')))
    writeFileSync(join(outside, 'notes.txt'), 'private notes')
    mkdirSync(join(workspace, 'lib'))
    writeFileSync(join(workspace, 'lib/util.ts'), 'export const one = 1\n')
    writeFileSync(join(workspace, 'main.ts'), 'console.log("hi")\n')
    git(workspace, 'init', '-q')
    git(workspace, 'add', '.')
    git(workspace, 'commit', '-q', '-m', 'first')
    writeFileSync(join(workspace, 'main.ts'), 'console.log("hello")\n')
    const message = `Explain @main.ts, @lib/ and @git-changes (not @../${basename(outside)}/notes.txt)`
    const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const run = await onTerminal(['run', '--workspace', workspace, ...provider, '--non-interactive', message], env)
    expect(run.code).toBe(0)
    const sent = lastUserText(fake.requests[0])
    expect(sent).toContain(`<task>\n${message}\n</task>`)
    expect(sent).toContain('<mention path="main.ts">\nFile: main.ts\n1 | console.log("hello")\n</mention>')
    expect(sent).toContain('<mention path="lib/">\nContents of lib:\nlib/util.ts\n</mention>')
    expect(sent).toContain('<mention name="git-changes">\ndiff --git a/main.ts b/main.ts')
    expect(sent).toContain('+console.log("hello")')
    expect(sent).not.toContain('private notes')
    expect(run.output.replace(/\r/g, '')).toMatch(
      /@\.\.\/modus-cli-outside-\w+\/notes\.txt was not attached: .* is outside the workspace/
    )
  })
})
