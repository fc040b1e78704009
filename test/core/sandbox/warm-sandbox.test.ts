import { existsSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { until, type Harness } from '../terminal/harness'
import { ASKING, OFFLINE, startSandboxedShell, type SandboxedShell } from './sandboxed-shell'

/**
 * Sandboxed commands in a warm sandbox (one bubblewrap kept per task, mode and terminal, real
 * bubblewrap and pty, temporary HOME): they behave as in a sandbox started for each command.
 */
describe('the warm sandbox', () => {
  let shell: SandboxedShell
  let h: Harness
  const approvals = createApprovalQueue()

  beforeAll(async () => {
    shell = await startSandboxedShell({ approvals, taskTitle: 'Warm sandbox test', task: 'warm', warm: true })
    h = shell.h
    await writeFile(join(h.home, '.npmrc'), '//registry.example/:_authToken=FIRST-TOKEN\n')
  }, 60_000)
  afterAll(() => shell?.dispose())

  const run: SandboxedShell['run'] = (...args) => shell.run(...args)
  /** The warm task's running command has printed `text`. */
  const commandStarted = (text: string) =>
    until(
      () =>
        h.service
          .list()
          .some((t) => t.taskId === 'warm' && t.command?.endedAt === null && (h.data.get(t.id) ?? '').includes(text)),
      'the command to start'
    )
  // The sandbox's pid namespace: the same one means the same (warm) sandbox.
  const namespaceOf = async (setting: EffectiveSandbox = OFFLINE): Promise<string> =>
    (await run('readlink /proc/self/ns/pid', setting)).output.text.trim()

  it('runs repeated commands in one sandbox, on the task shell’s terminal, with their exit codes', async () => {
    const first = await namespaceOf()
    expect(first).toMatch(/^pid:\[\d+\]$/)
    expect(await namespaceOf()).toBe(first)
    const result = await run('[ -t 0 ] && [ -t 1 ] && echo on-a-tty; echo to-stderr >&2; exit 7')
    expect(result.exitCode).toBe(7)
    expect(result.output.text).toContain('on-a-tty')
    expect(result.output.text).toContain('to-stderr')
    await until(() => (h.data.get(result.terminalId) ?? '').includes('on-a-tty'), 'the output in the terminal view')
    expect(await namespaceOf()).toBe(first)
    // Still a sandbox: the workspace is writable, .git and the rest of the disk are not.
    const write = await run('echo x > written.txt && echo y >> .git/config; echo z > /usr/modus-warm-test')
    expect(write.exitCode).not.toBe(0)
    expect(await readFile(join(h.root, 'written.txt'), 'utf8')).toBe('x\n')
    expect(await readFile(join(h.root, '.git', 'config'), 'utf8')).toBe('[core]\n')
    expect(existsSync('/usr/modus-warm-test')).toBe(false)
  }, 60_000)

  it('ends what a command left running in the background before the next one starts', async () => {
    const ns = await namespaceOf()
    const left = await run('sleep 300 & echo started')
    expect(left.output.text).toBe('started\n')
    const next = await run('for p in /proc/[0-9]*; do cat "$p/comm"; done 2>/dev/null | grep -c "^sleep$"')
    expect(next.output.text.trim()).toBe('0')
    expect(await namespaceOf()).toBe(ns)
  }, 60_000)

  it('keeps no shell state from one command to the next, and says so', async () => {
    const set = await run('export WARM_VAR=set; PLAIN_VAR=set; warm_fn() { echo fn; }; cd /tmp')
    expect(set.notes.join(' ')).toContain('are not kept for the next command')
    const next = await run(
      'echo "[${WARM_VAR:-unset}][${PLAIN_VAR:-unset}]"; type warm_fn >/dev/null 2>&1 || echo no-fn; pwd'
    )
    expect(next.output.text).toBe(`[unset][unset]\nno-fn\n${h.root}\n`)
  }, 60_000)

  it('sees the task shell’s exported variables and functions, as a per-command sandbox did', async () => {
    const task = h.service.forTask('warm', h.root)
    await task.execute({
      command: 'export FROM_TASK_SHELL=yes; task_fn() { echo from-fn; }; alias task_alias="echo from-alias"'
    })
    const result = await run('echo "$FROM_TASK_SHELL"; task_fn; task_alias')
    expect(result.output.text).toBe('yes\nfrom-fn\nfrom-alias\n')
    await task.execute({ command: 'unset FROM_TASK_SHELL; unset -f task_fn; unalias task_alias' })
  }, 60_000)

  it('hides a credential file replaced by write-and-rename between commands (the sandbox is rebuilt)', async () => {
    const before = await run('cat ~/.npmrc; echo "[$(cat ~/.npmrc 2>/dev/null)]"')
    expect(before.output.text).not.toContain('FIRST-TOKEN')
    const ns = await namespaceOf()
    await writeFile(join(h.home, '.npmrc.tmp'), '//registry.example/:_authToken=SECOND-TOKEN\n')
    await rename(join(h.home, '.npmrc.tmp'), join(h.home, '.npmrc'))
    const after = await run('cat ~/.npmrc; echo "[$(cat ~/.npmrc 2>/dev/null)]"')
    expect(after.output.text).not.toContain('SECOND-TOKEN')
    expect(after.output.text).toContain('[]')
    expect(await namespaceOf()).not.toBe(ns)
  }, 60_000)

  it('keeps a protected path created between commands read-only (the sandbox is rebuilt)', async () => {
    const ns = await namespaceOf()
    await writeFile(join(h.root, 'AGENTS.md'), 'rules\n')
    try {
      const result = await run('echo injected >> AGENTS.md')
      expect(result.exitCode).not.toBe(0)
      expect(await readFile(join(h.root, 'AGENTS.md'), 'utf8')).toBe('rules\n')
      expect(await namespaceOf()).not.toBe(ns)
    } finally {
      await rm(join(h.root, 'AGENTS.md'), { force: true })
    }
  }, 60_000)

  it('cannot push keystrokes into the task shell through the terminal it shares (TIOCSTI)', async () => {
    await namespaceOf()
    const pushed = await run(
      `perl -e 'for (split //, "touch PWNED\\n") { my $c = $_; ioctl(STDIN, 0x5412, $c) or die "refused: $!\\n" } print "pushed\\n"'`
    )
    expect(pushed.output.text).toMatch(/refused: /)
    expect(existsSync(join(h.root, 'PWNED'))).toBe(false)
  }, 60_000)

  it('ends a long command on Ctrl-C in the terminal, and runs the next one', async () => {
    const pending = run('echo waiting; sleep 300; echo after')
    await commandStarted('waiting')
    const terminal = h.service.list().find((t) => t.taskId === 'warm' && t.command?.endedAt === null)!
    h.service.write(terminal.id, '\x03')
    const result = await pending
    expect(result.outcome).toBe('exited')
    expect(result.exitCode).toBe(130)
    expect(result.output.text).not.toContain('after')
    expect((await run('echo next')).output.text).toBe('next\n')
  }, 60_000)

  it('ends a cancelled command (its task shell is killed) and starts again for the next', async () => {
    const controller = new AbortController()
    const pending = run('echo waiting; sleep 300', OFFLINE, { signal: controller.signal })
    await commandStarted('waiting')
    controller.abort()
    expect((await pending).outcome).toBe('cancelled')
    expect((await run('echo next')).output.text).toBe('next\n')
  }, 60_000)

  it('asks per host with network ask, attributed to the command that connects', async () => {
    const ns = await namespaceOf(ASKING)
    expect(await namespaceOf(ASKING)).toBe(ns)
    const fetch = `curl -fsS --max-time 20 http://127.0.0.1:${shell.port}/`
    const pending = run(fetch, ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    const [item] = approvals.list()
    expect(item.summary).toBe(`${fetch} wants 127.0.0.1:${shell.port}`)
    approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    const result = await pending
    expect(result.exitCode).toBe(0)
    expect(result.output.text).toBe('hello from the test server\n')
    // Approved for that command only: the next one asks again, under its own text.
    const again = `curl -fsS --max-time 20 http://127.0.0.1:${shell.port}/again`
    const second = run(again, ASKING)
    await until(() => approvals.list().length === 1, 'the second approval item', 30_000)
    expect(approvals.list()[0].summary).toBe(`${again} wants 127.0.0.1:${shell.port}`)
    approvals.decide({ approvalId: approvals.list()[0].id, outcome: 'reject', scope: 'call', reason: 'no' })
    const refused = await second
    expect(refused.exitCode).not.toBe(0)
    expect(refused.sandboxBlocked).toBe(`Sandbox: blocked a connection to 127.0.0.1:${shell.port}.`)
    expect(await namespaceOf(ASKING)).toBe(ns)
  }, 90_000)

  it('ends with its task, and the placeholders over absent protected paths go with it', async () => {
    // The other tests' warm sandboxes hold the same workspace's placeholders.
    await h.service.endTask('warm')
    await shell.sandbox.endTask('warm')
    await until(() => !existsSync(join(h.root, '.roomodes')), 'the earlier placeholders to go')
    await run('true', OFFLINE, {}, 'short')
    // While it is warm, bubblewrap's empty files keep .roomodes and .modus from being created.
    expect(existsSync(join(h.root, '.roomodes'))).toBe(true)
    expect(existsSync(join(h.root, '.modus'))).toBe(true)
    await h.service.endTask('short')
    await shell.sandbox.endTask('short')
    await until(
      () => !existsSync(join(h.root, '.roomodes')) && !existsSync(join(h.root, '.modus')),
      'the placeholders to go'
    )
  }, 60_000)
})
