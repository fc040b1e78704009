import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxService, type SandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import { createExecuteCommandExecutor } from '../../../src/main/core/tools/execute-command'
import type { CommandToolContext } from '../../../src/main/core/ports/tool-types'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { createHarness, type Harness } from '../terminal/harness'

/**
 * The one line the model reads when the sandbox blocked something, for real commands of several
 * shapes run by execute_command in the real sandbox (bubblewrap + socat): the line right under
 * the status line of the tool result, exactly.
 */
describe('what the model is told the sandbox blocked', () => {
  let h: Harness
  let sandbox: SandboxService
  let gitConfig = ''
  const executor = createExecuteCommandExecutor()
  // Only this domain is listed; nothing here leaves the machine (the proxy refuses before resolving).
  const listed: EffectiveSandbox = { network: 'allow-list', allowedDomains: ['registry.npmjs.org'] }

  beforeAll(async () => {
    h = await createHarness()
    // The system temp dir is elsewhere, so HOME (under /tmp here) is outside the writable roots.
    const tempDir = join(h.root, '..', 'system-tmp')
    await mkdir(tempDir)
    sandbox = createSandboxService({ tempDir, askNetwork: async () => ({ allow: false }) })
    execFileSync('git', ['init', '-q', h.root])
    gitConfig = await readFile(join(h.root, '.git', 'config'), 'utf8')
  }, 60_000)
  afterAll(async () => {
    await sandbox?.dispose()
    await h?.cleanup()
  })

  /** The tool result's text for the command, as the model gets it. */
  const modelSees = async (command: string): Promise<{ text: string; lines: string[] }> => {
    const ctx = {
      taskId: 'blocked',
      signal: new AbortController().signal,
      modelSupportsImages: false,
      terminal: h.service.forTask('blocked', h.root),
      sandbox: async () => ({
        wrap: (text: string, shell: string) =>
          sandbox.prepare({
            taskId: 'blocked',
            modeSlug: 'code',
            modeName: 'Code',
            command: text,
            workspaceRoot: h.root,
            sandbox: listed,
            shell
          })
      })
    } as unknown as CommandToolContext
    const output = await executor.execute({ command }, ctx)
    const text = output.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
    return { text, lines: text.split('\n') }
  }

  it('a redirect into /etc', async () => {
    const { lines } = await modelSees('echo x > /etc/modus-blocked-probe')
    expect(lines[0]).toMatch(/^Command failed with exit code 1 in /)
    expect(lines[1]).toBe('Sandbox: blocked a write to /etc/modus-blocked-probe (outside the writable roots).')
    expect(existsSync('/etc/modus-blocked-probe')).toBe(false)
  }, 60_000)

  it('touch in the home folder, outside the writable roots', async () => {
    const { lines } = await modelSees('touch ~/modus-probe')
    expect(lines[1]).toBe(`Sandbox: blocked a write to ${h.home}/modus-probe (outside the writable roots).`)
    expect(existsSync(join(h.home, 'modus-probe'))).toBe(false)
  }, 60_000)

  it('writes inside the workspace .git/, which stays read-only', async () => {
    const redirect = await modelSees('echo x > .git/hooks-probe')
    expect(redirect.lines[1]).toBe(
      'Sandbox: blocked a write to .git/hooks-probe (a protected path, read-only in the sandbox).'
    )
    const git = await modelSees('git config user.name probe')
    expect(git.lines[1]).toBe('Sandbox: blocked a write to .git/config (a protected path, read-only in the sandbox).')
    const commit = await modelSees(
      'git -c user.name=probe -c user.email=probe@example.invalid commit -q --allow-empty -m probe'
    )
    expect(commit.lines[1]).toBe(
      `Sandbox: blocked a write to ${h.root}/.git/index.lock (a protected path, read-only in the sandbox).`
    )
    const sed = await modelSees('sed -i s/core/x/ .git/config')
    expect(sed.lines[1]).toMatch(
      /^Sandbox: blocked a write to \.git\/sed\w+ \(a protected path, read-only in the sandbox\)\.$/
    )
    expect(await readFile(join(h.root, '.git', 'config'), 'utf8')).toBe(gitConfig)
  }, 60_000)

  it('a program reporting EROFS its own way (Node), and a copy naming its source first', async () => {
    const node = await modelSees(`node -e "require('fs').writeFileSync('/etc/modus-node-probe', '1')"`)
    expect(node.lines[1]).toBe('Sandbox: blocked a write to /etc/modus-node-probe (outside the writable roots).')
    const move = await modelSees('echo x > moved.txt && mv moved.txt /opt/')
    expect(move.lines[1]).toBe('Sandbox: blocked a write to /opt/moved.txt (outside the writable roots).')
  }, 60_000)

  it('curl through the proxy to a domain not on the list', async () => {
    const https = await modelSees('curl -sS --max-time 20 https://blocked.example/')
    expect(https.lines[0]).toMatch(/^Command failed with exit code 56 in /)
    expect(https.lines[1]).toBe('Sandbox: blocked a connection to blocked.example:443.')
    const http = await modelSees('curl -sS --max-time 20 http://blocked.example:8080/x')
    expect(http.lines[1]).toBe('Sandbox: blocked a connection to blocked.example:8080.')
  }, 60_000)

  it('a write and a connection in one command, in one line', async () => {
    const { lines } = await modelSees('touch /usr/modus-probe; curl -sS --max-time 20 https://blocked.example/; true')
    expect(lines[0]).toMatch(/^Command exited with code 0 in /)
    expect(lines[1]).toBe(
      'Sandbox: blocked a write to /usr/modus-probe (outside the writable roots); and a connection to blocked.example:443.'
    )
    expect(lines[2]).toBe('')
  }, 60_000)

  it('a blocked write in the middle of long output, far from the preview head and tail', async () => {
    // ~600 KB of output before and after: the preview the model gets keeps only its start and end.
    const { text, lines } = await modelSees(
      'seq 1 100000; echo x > /etc/modus-middle-probe; seq 1 100000; printf "%.0s=" $(seq 1 20000); echo x > /usr/modus-long-line-probe; seq 1 100000; true'
    )
    expect(text).toContain('characters omitted')
    expect(text).not.toContain('modus-middle-probe: Read-only')
    expect(lines[1]).toBe(
      'Sandbox: blocked writes to /etc/modus-middle-probe, /usr/modus-long-line-probe (outside the writable roots).'
    )
    expect(existsSync('/etc/modus-middle-probe')).toBe(false)
  }, 60_000)

  it('nothing blocked, no line', async () => {
    const { lines } = await modelSees('echo fine > ok.txt && cat ok.txt')
    expect(lines[0]).toMatch(/^Command exited with code 0 in /)
    expect(lines.some((line) => line.startsWith('Sandbox:'))).toBe(false)
  }, 60_000)
})
