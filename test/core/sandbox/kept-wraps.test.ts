import { existsSync, lstatSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { offlineRefusals } from '../../../src/main/core/sandbox/offline-refusals'
import { createSandboxService, type SandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import type { CommandRunRequest } from '../../../src/main/core/terminal/types'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { createHarness, until, type Harness } from '../terminal/harness'

/**
 * Commands of a mode without network, in the bubblewrap line Modus builds and keeps between
 * commands (no runtime, no proxy bridges): what the runtime's wrap guaranteed still holds, and
 * what changes on disk after the line was built is covered from the next command on.
 */
describe('sandboxed commands without network (Modus’s own bubblewrap line)', () => {
  let h: Harness
  let sandbox: SandboxService
  let dataDir = ''
  let unixServer: Server
  let unixConnections = 0
  const offline: EffectiveSandbox = { network: 'none', allowedDomains: [] }

  beforeAll(async () => {
    h = await createHarness()
    dataDir = join(h.root, '..', 'modus-data')
    await mkdir(dataDir)
    await writeFile(join(dataDir, 'secrets.json'), 'SECRET-KEY\n')
    sandbox = createSandboxService({
      tempDir: join(h.root, '..'),
      home: () => h.home,
      askNetwork: async () => ({ allow: false })
    })
    unixServer = createServer((socket) => {
      unixConnections++
      socket.end('hello over a unix socket\n')
    })
    await new Promise<void>((resolve) => unixServer.listen(join(h.root, '..', 'host.sock'), resolve))
  }, 60_000)
  afterAll(async () => {
    unixServer?.close()
    await sandbox?.dispose()
    await h?.cleanup()
  })

  const run = (
    command: string,
    setting: EffectiveSandbox = offline,
    root = h.root,
    extra: Partial<CommandRunRequest> = {}
  ) =>
    h.service.forTask('offline', root).execute({
      command,
      timeoutMs: 30_000,
      ...extra,
      sandbox: (text, shell) =>
        sandbox.prepare({
          taskId: 'offline',
          modeSlug: 'code',
          modeName: 'Code',
          command: text,
          workspaceRoot: root,
          sandbox: setting,
          shell,
          privateDirs: [dataDir]
        })
    })

  it('cannot reach a unix socket on the host (the runtime’s seccomp rule), nor make a user namespace', async () => {
    const socket = join(h.root, '..', 'host.sock')
    const script = `const s = require('net').connect(${JSON.stringify(socket)}); s.on('data', (d) => process.stdout.write('got ' + d)); s.on('error', (e) => console.log('refused ' + e.code))`
    const result = await run(
      `node -e ${JSON.stringify(script)}; unshare -U true 2>/dev/null && echo userns made || echo no userns`
    )
    expect(result.output.text).toBe('refused EPERM\nno userns\n')
    expect(unixConnections).toBe(0)
    expect(result.exitCode).toBe(0)
  }, 60_000)

  it('hides a credential store that appears after earlier commands, from the next command on', async () => {
    expect((await run('echo warm')).output.text).toBe('warm\n')
    await mkdir(join(h.home, '.aws'), { recursive: true })
    await writeFile(join(h.home, '.aws', 'credentials'), 'AWS-SECRET\n')
    try {
      const result = await run('cat ~/.aws/credentials; echo end')
      expect(result.output.text).not.toContain('AWS-SECRET')
      expect(result.sandboxBlocked).toContain(`a read of ${join(h.home, '.aws')} (a credential store`)
    } finally {
      await rm(join(h.home, '.aws'), { recursive: true, force: true })
    }
  }, 60_000)

  it('works in a workspace inside Modus’s data dir (an isolated task’s worktree), whose secrets stay hidden', async () => {
    const worktree = join(dataDir, 'worktrees', 'task-1')
    await mkdir(worktree, { recursive: true })
    const result = await run(
      `echo made > made.txt && cat made.txt; cat ${join(dataDir, 'secrets.json')}; echo end`,
      offline,
      worktree
    )
    expect(result.output.text).toContain('made\n')
    expect(result.output.text).not.toContain('SECRET-KEY')
    expect(await readFile(join(worktree, 'made.txt'), 'utf8')).toBe('made\n')
    expect(result.sandboxBlocked).toContain(`a read of ${dataDir}`)
  }, 60_000)

  it('keeps the mode’s own writable roots: a new setting builds a new line', async () => {
    await mkdir(join(h.root, 'out'), { recursive: true })
    const narrow: EffectiveSandbox = { ...offline, writableRoots: ['out'] }
    const result = await run('echo a > out/a.txt; echo b > ./b.txt; echo done', narrow)
    expect(await readFile(join(h.root, 'out', 'a.txt'), 'utf8')).toBe('a\n')
    expect(existsSync(join(h.root, 'b.txt'))).toBe(false)
    expect(result.sandboxBlocked).toContain('b.txt')
    expect((await run('echo b > b.txt && cat b.txt')).output.text).toBe('b\n')
  }, 60_000)

  it('keeps an absent .git protected while any sandboxed command runs, and removes its mount point once none does', async () => {
    const slow = run('until [ -f go ]; do sleep .05; done; mkdir -p .git/hooks; echo evil > .git/config; echo slept')
    await until(() => existsSync(join(h.root, '.git')), 'the first command to start', 30_000)
    // Another sandboxed command ends meanwhile: the first one's read-only .git must stay.
    expect((await run('echo quick')).output.text).toBe('quick\n')
    expect(lstatSync(join(h.root, '.git')).isFile()).toBe(true)
    await writeFile(join(h.root, 'go'), '')
    const result = await slow
    expect(result.output.text).toContain('slept')
    expect(existsSync(join(h.root, '.git'))).toBe(false)
    await rm(join(h.root, 'go'))
  }, 60_000)
})

/**
 * Commands of a mode with network, in the runtime's wrap kept between commands: each command has
 * its own proxy identity (its own allow list), the shell's definitions, and what appears on disk
 * later is covered from the next command on.
 */
describe('sandboxed commands with network (the runtime’s wrap, kept)', () => {
  let h: Harness
  let sandbox: SandboxService
  let port = 0
  const server = createHttpServer((_request, response) => response.end('hello\n'))
  const listed: EffectiveSandbox = { network: 'allow-list', allowedDomains: ['127.0.0.1'] }
  const elsewhere: EffectiveSandbox = { network: 'allow-list', allowedDomains: ['example.com'] }

  beforeAll(async () => {
    h = await createHarness()
    sandbox = createSandboxService({
      tempDir: join(h.root, '..'),
      home: () => h.home,
      askNetwork: async () => ({ allow: false })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  }, 60_000)
  afterAll(async () => {
    server.close()
    await sandbox?.dispose()
    await h?.cleanup()
  })

  const run = (command: string, setting: EffectiveSandbox) =>
    h.service.forTask('online', h.root).execute({
      command,
      timeoutMs: 30_000,
      sandbox: (text, shell) =>
        sandbox.prepare({
          taskId: 'online',
          modeSlug: 'code',
          modeName: 'Code',
          command: text,
          workspaceRoot: h.root,
          sandbox: setting,
          shell
        })
    })
  const fetch = () => `curl -fsS --max-time 20 http://127.0.0.1:${port}/`

  it('gives each command its own allow list: the same wrap, one passed and one refused', async () => {
    expect((await run(fetch(), listed)).output.text).toBe('hello\n')
    const refused = await run(fetch(), elsewhere)
    expect(refused.exitCode).not.toBe(0)
    expect(refused.sandboxBlocked).toBe(`Sandbox: blocked a connection to 127.0.0.1:${port}.`)
    expect((await run(fetch(), listed)).output.text).toBe('hello\n')
  }, 60_000)

  it("sees the task shell's functions and aliases; what it sets is not kept", async () => {
    const task = h.service.forTask('online', h.root)
    await task.execute({ command: `greet() { echo "hello $1"; }; alias ll='echo listing'`, timeoutMs: 30_000 })
    const result = await run('greet kept; ll; echo "it\'s quoted"; export LEFT=1; greet() { echo changed; }', listed)
    expect(result.output.text).toBe("hello kept\nlisting\nit's quoted\n")
    expect((await run('greet again; echo "${LEFT:-unset}"', listed)).output.text).toBe('hello again\nunset\n')
  }, 60_000)

  it('keeps a protected path that appears later read-only, and hides a credential store that appears later', async () => {
    expect((await run('echo warm', listed)).output.text).toBe('warm\n')
    await mkdir(join(h.root, '.vscode'))
    await writeFile(join(h.root, '.vscode', 'settings.json'), '{}\n')
    await mkdir(join(h.home, '.kube'))
    await writeFile(join(h.home, '.kube', 'config'), 'KUBE-TOKEN\n')
    const result = await run('echo evil > .vscode/settings.json; cat ~/.kube/config; echo done', listed)
    expect(result.output.text).toContain('done')
    expect(result.output.text).not.toContain('KUBE-TOKEN')
    expect(await readFile(join(h.root, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n')
    expect(result.sandboxBlocked).toContain('.vscode')
    expect(result.sandboxBlocked).toContain(join(h.home, '.kube'))
  }, 60_000)
})

describe('connections a command without network tried, read from its output', () => {
  it('names host and port from curl, git, Node, Python and wget', () => {
    const output = [
      "curl: (7) Failed to connect to 127.0.0.1 port 4000 after 0 ms: Couldn't connect to server",
      "fatal: unable to access 'https://github.com/a/b/': Could not resolve host: github.com",
      'Error: connect ECONNREFUSED ::1:3000'.replace('::1', '[::1]'),
      'npm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
      "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded",
      'wget: unable to resolve host address ‘example.com’',
      'an ordinary line about ports and hosts'
    ].join('\n')
    expect(offlineRefusals(output)).toEqual([
      '127.0.0.1:4000',
      'github.com',
      '[::1]:3000',
      'registry.npmjs.org',
      'localhost:8000',
      'example.com'
    ])
  })
})
