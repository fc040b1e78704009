import { readdirSync, readFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import { createNetworkApprovals } from '../../../src/main/core/sandbox/network-approvals'
import { createSandboxService, type SandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { createHarness, until, type Harness } from '../terminal/harness'

/** Command lines of this machine's processes that mention `text` (the relay names the proxy's socket). */
const processesNaming = (text: string): string[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
      } catch {
        return ''
      }
    })
    .filter((line) => line.includes(text) && line.includes('TCP4-LISTEN'))

/**
 * A mode whose sandbox asks for the network (the built-in Code and Debug default), on Modus's
 * own bubblewrap line: the relay to the runtime's proxy lives outside the sandbox, so the
 * command keeps the seccomp rule (no new unix socket) and no user namespace, its loopback
 * connections ask, and the relay ends with the command.
 */
describe('sandboxed commands whose mode asks for the network (Modus’s own line and relay)', () => {
  let h: Harness
  let sandbox: SandboxService
  let server: ReturnType<typeof createHttpServer>
  let unixServer: Server
  let unixConnections = 0
  let port = 0
  const approvals = createApprovalQueue()
  const asking: EffectiveSandbox = { network: 'ask', allowedDomains: [] }

  beforeAll(async () => {
    h = await createHarness()
    sandbox = createSandboxService({
      tempDir: join(h.root, '..'),
      home: () => h.home,
      askNetwork: createNetworkApprovals({ approvals, taskTitle: () => 'Bridge test', allowDomain: async () => {} })
    })
    server = createHttpServer((_request, response) => response.end('hello through the relay\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    unixServer = createServer((socket) => {
      unixConnections++
      socket.end('hello over a unix socket\n')
    })
    await new Promise<void>((resolve) => unixServer.listen(join(h.root, '..', 'host.sock'), resolve))
  }, 60_000)
  afterAll(async () => {
    server?.close()
    unixServer?.close()
    await sandbox?.dispose()
    await h?.cleanup()
  })

  const wrap = (command: string) =>
    sandbox.prepare({
      taskId: 'bridge',
      modeSlug: 'code',
      modeName: 'Code',
      command,
      workspaceRoot: h.root,
      sandbox: asking,
      shell: '/bin/bash'
    })
  const run = (command: string) =>
    h.service.forTask('bridge', h.root).execute({ command, timeoutMs: 30_000, sandbox: (text) => wrap(text) })

  it('is wrapped by Modus: one bubblewrap start with the seccomp filter, no socat or seccomp helper inside', async () => {
    const prepared = await wrap('true')
    prepared.finish('')
    expect(prepared.text).toContain('--seccomp 3')
    expect(prepared.text).toContain('--unshare-net')
    expect(prepared.text).toContain('--disable-userns')
    expect(prepared.text).not.toContain('apply-seccomp')
    // What runs inside: the task shell's definitions and the command, nothing of the relay.
    const inside = prepared.text.slice(prepared.text.indexOf(' -- /bin/bash -c '), prepared.text.indexOf(' 3< '))
    expect(inside).toContain('true')
    expect(inside).not.toContain('socat')
    expect(prepared.text.match(/bwrap /g)).toHaveLength(1)
  }, 60_000)

  it('a curl to a 127.0.0.1 server asks; approved, it connects; the relay ends with the command', async () => {
    const command = `curl -fsS --max-time 20 http://127.0.0.1:${port}/`
    const pending = run(command)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    const [item] = approvals.list()
    expect(item.summary).toBe(`${command} wants 127.0.0.1:${port}`)
    approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    const result = await pending
    expect(result.output.text).toBe('hello through the relay\n')
    expect(result.sandboxBlocked).toBeNull()
    // The relay names this process's proxy socket (other test files and other runs have their own).
    const prepared = await wrap('true')
    prepared.finish('')
    const socket = /--bind (\/\S*claude-http-\S+\.sock) /.exec(prepared.text)?.[1] ?? 'no socket'
    await until(() => processesNaming(socket).length === 0, 'the relay to end', 10_000)
  }, 60_000)

  it('refused, the command fails and its Sandbox: line names the connection', async () => {
    const command = `curl -fsS --max-time 20 http://localhost:${port}/`
    const pending = run(command)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    approvals.decide({ approvalId: approvals.list()[0].id, outcome: 'reject', scope: 'call' })
    const result = await pending
    expect(result.exitCode).not.toBe(0)
    expect(result.output.text).not.toContain('hello through the relay')
    expect(result.sandboxBlocked).toBe(`Sandbox: blocked a connection to localhost:${port}.`)
  }, 60_000)

  it('cannot reach a unix socket on the host nor make a user namespace, though the relay reaches the proxy’s', async () => {
    const socket = join(h.root, '..', 'host.sock')
    const script = `const s = require('net').connect(${JSON.stringify(socket)}); s.on('data', (d) => process.stdout.write('got ' + d)); s.on('error', (e) => console.log('refused ' + e.code))`
    const result = await run(
      `node -e ${JSON.stringify(script)}; unshare -U true 2>/dev/null && echo userns made || echo no userns`
    )
    expect(result.output.text).toBe('refused EPERM\nno userns\n')
    expect(unixConnections).toBe(0)
  }, 60_000)

  it('cannot move the proxy’s socket aside or see the relay', async () => {
    const prepared = await wrap('true')
    prepared.finish('')
    const socket = /--bind (\/\S*claude-http-\S+\.sock) /.exec(prepared.text)?.[1]
    expect(socket).toBeTruthy()
    const result = await run(
      `mv ${socket} ${socket}.moved 2>/dev/null && echo moved || echo kept; ps -e -o comm= | grep -c -x socat || true`
    )
    expect(result.output.text).toBe('kept\n0\n')
  }, 60_000)
})
