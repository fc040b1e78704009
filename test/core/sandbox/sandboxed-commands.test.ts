import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApprovalQueue } from '../../../src/main/core/approvals/approval-queue'
import { createSandboxService } from '../../../src/main/core/sandbox/sandbox-service'
import { formatCommandResult } from '../../../src/main/core/tools/execute-command'
import type { EffectiveSandbox } from '../../../src/shared/policy/sandbox'
import { createHarness, until, type Harness } from '../terminal/harness'
import { ASKING, OFFLINE, startSandboxedShell, type SandboxedShell } from './sandboxed-shell'

/**
 * Real commands in the real sandbox (bubblewrap + socat), run through the task's persistent shell:
 * what a sandboxed mode may write, and its network asks going through the approval queue.
 */
describe('commands in the OS sandbox', () => {
  let shell: SandboxedShell
  let h: Harness
  let tempDir = ''
  let port = 0
  const approvals = createApprovalQueue()
  const savedDomains: string[] = []

  beforeAll(async () => {
    shell = await startSandboxedShell({
      approvals,
      taskTitle: 'Sandbox test',
      task: 'sandboxed',
      allowDomain: async (_mode, domain) => {
        savedDomains.push(domain)
      }
    })
    ;({ h, tempDir, port } = shell)
  }, 60_000)
  afterAll(() => shell?.dispose())

  const run: SandboxedShell['run'] = (...args) => shell.run(...args)
  // --noproxy '' is what a user would have needed before loopback went through the proxy; the loopback test below does without.
  const fetchCommand = () => `curl -fsS --max-time 20 --noproxy '' http://127.0.0.1:${port}/`

  it('is available here', async () => {
    expect(await shell.sandbox.status()).toEqual({ available: true, platform: 'linux' })
  })

  it('writes inside the workspace and the temp dir, with output and exit code as usual', async () => {
    const result = await run(`echo inside > made.txt && echo temp > ${tempDir}/t.txt && cat made.txt; exit 3`, OFFLINE)
    expect(result.outcome).toBe('exited')
    expect(result.exitCode).toBe(3)
    expect(result.output.text).toBe('inside\n')
    expect(await readFile(join(h.root, 'made.txt'), 'utf8')).toBe('inside\n')
    expect(await readFile(join(tempDir, 't.txt'), 'utf8')).toBe('temp\n')
    expect(result.sandboxBlocked).toBeNull()
  }, 60_000)

  it('refuses writes to ~/.bashrc, /etc and .git/config, and says so in one line', async () => {
    const result = await run(
      'echo evil >> ~/.bashrc; echo evil > /etc/modus-sandbox-probe; echo evil >> .git/config; echo done',
      OFFLINE
    )
    expect(result.output.text).toContain('done')
    expect(await readFile(join(h.home, '.bashrc'), 'utf8')).toBe('')
    expect(existsSync('/etc/modus-sandbox-probe')).toBe(false)
    expect(await readFile(join(h.root, '.git', 'config'), 'utf8')).toBe('[core]\n')
    // `.bashrc` is in the protected-name table (#25 §9), so its refused write is reported with .git/config.
    expect(result.sandboxBlocked).toMatch(
      /^Sandbox: blocked a write to \/etc\/modus-sandbox-probe \(outside the writable roots\) and writes to .*\.bashrc, \.git\/config \(a protected path/
    )
    const text = formatCommandResult(result)
    expect(text.split('\n')[1]).toBe(result.sandboxBlocked)
  }, 60_000)

  it('keeps .modus/ and .roomodes read-only even before they exist', async () => {
    const result = await run('mkdir -p .modus/x; echo y > .roomodes; ls -A', OFFLINE)
    expect(existsSync(join(h.root, '.modus', 'x'))).toBe(false)
    expect(
      existsSync(join(h.root, '.roomodes')) && (await readFile(join(h.root, '.roomodes'), 'utf8')).length > 0
    ).toBe(false)
    expect(result.sandboxBlocked).toContain('.roomodes')
  }, 60_000)

  it('leaves no mount points for the protected paths behind in the workspace', async () => {
    const result = await run('ls -A', OFFLINE)
    // While the command ran, bwrap had placed them (empty) to mount over.
    expect(result.output.text).toContain('.roomodes')
    expect(existsSync(join(h.root, '.roomodes'))).toBe(false)
    expect(existsSync(join(h.root, '.modus'))).toBe(false)
  }, 60_000)

  // Guards any caching of the wrap between commands: which protected paths exist is read per command.
  it('keeps .vscode/ and .modusignore read-only when they appear after earlier sandboxed commands', async () => {
    expect((await run('echo warm', OFFLINE)).exitCode).toBe(0)
    expect(existsSync(join(h.root, '.vscode'))).toBe(false)
    await mkdir(join(h.root, '.vscode'))
    await writeFile(join(h.root, '.vscode', 'settings.json'), '{}\n')
    await writeFile(join(h.root, '.modusignore'), 'secret/\n')
    try {
      const result = await run(
        'echo evil > .vscode/settings.json; echo evil > .vscode/tasks.json; echo evil >> .modusignore; echo done',
        OFFLINE
      )
      expect(result.output.text).toContain('done')
      expect(await readFile(join(h.root, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n')
      expect(existsSync(join(h.root, '.vscode', 'tasks.json'))).toBe(false)
      expect(await readFile(join(h.root, '.modusignore'), 'utf8')).toBe('secret/\n')
      expect(result.sandboxBlocked).toContain('.vscode')
      expect(result.sandboxBlocked).toContain('.modusignore')
    } finally {
      await rm(join(h.root, '.vscode'), { recursive: true, force: true })
      await rm(join(h.root, '.modusignore'), { force: true })
    }
  }, 60_000)

  it('puts a connection to an unlisted host in the approval queue; allowed, it passes', async () => {
    const pending = run(fetchCommand(), ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    const [item] = approvals.list()
    expect(item.kind).toBe('network')
    expect(item.summary).toBe(`${fetchCommand()} wants 127.0.0.1:${port}`)
    expect(item.reason).toContain('waits for your answer')
    expect(item.suggestedRule?.label).toBe(`Always allow 127.0.0.1:${port} for sandboxed commands in Code mode`)
    approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    const result = await pending
    expect(result.exitCode).toBe(0)
    expect(result.output.text).toBe('hello from the test server\n')
    expect(result.sandboxBlocked).toBeNull()
    expect(savedDomains).toEqual([])
  }, 60_000)

  it('denied, the connection fails and the result names it; "always" saves the domain to the mode', async () => {
    const denied = run(fetchCommand(), ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    approvals.decide({ approvalId: approvals.list()[0].id, outcome: 'reject', scope: 'call', reason: 'not now' })
    const result = await denied
    expect(result.exitCode).not.toBe(0)
    expect(result.output.text).not.toContain('hello from the test server')
    expect(result.sandboxBlocked).toBe(`Sandbox: blocked a connection to 127.0.0.1:${port}.`)

    const always = run(fetchCommand(), ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    const item = approvals.list()[0]
    approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call', alwaysAllow: item.suggestedRule?.rule })
    expect((await always).output.text).toBe('hello from the test server\n')
    expect(savedDomains).toEqual([`127.0.0.1:${port}`])
  }, 90_000)

  it('refuses without ASKING when the mode has no network, and passes a listed host without ASKING', async () => {
    const offlineResult = await run(fetchCommand(), OFFLINE)
    expect(offlineResult.exitCode).not.toBe(0)
    expect(offlineResult.sandboxBlocked).toBe(`Sandbox: blocked a connection to 127.0.0.1:${port}.`)
    const listed = await run(fetchCommand(), { network: 'allow-list', allowedDomains: ['127.0.0.1'] })
    expect(listed.output.text).toBe('hello from the test server\n')
    expect(approvals.list()).toEqual([])
  }, 60_000)

  it('asks for a loopback host (localhost:port) like any other, no --noproxy needed; allowed once, it connects', async () => {
    const plain = `curl -fsS --max-time 20 http://localhost:${port}/`
    const pending = run(plain, ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    const [item] = approvals.list()
    expect(item.summary).toBe(`${plain} wants localhost:${port}`)
    expect(item.reason).toContain(`localhost:${port} is a service on this machine (loopback`)
    expect(item.suggestedRule?.label).toBe(`Always allow localhost:${port} for sandboxed commands in Code mode`)
    approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    const result = await pending
    expect(result.output.text).toBe('hello from the test server\n')
    expect(result.sandboxBlocked).toBeNull()
  }, 60_000)

  it('refuses a loopback connection of a mode without network, and says so in a Sandbox: line', async () => {
    const result = await run(`curl -fsS --max-time 20 http://127.0.0.1:${port}/`, OFFLINE)
    expect(result.exitCode).not.toBe(0)
    expect(result.sandboxBlocked).toBe(`Sandbox: blocked a connection to 127.0.0.1:${port}.`)
  }, 60_000)

  it('hides credential stores: ~/.ssh and ~/.npmrc cannot be read, and the blocked read has its Sandbox: line', async () => {
    await mkdir(join(h.home, '.ssh'), { recursive: true })
    await writeFile(join(h.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY\n')
    await writeFile(join(h.home, '.npmrc'), 'TOKEN\n')
    const result = await run('cat ~/.ssh/id_rsa; cat ~/.npmrc; echo end', OFFLINE)
    expect(result.output.text).not.toContain('PRIVATE-KEY')
    expect(result.output.text).not.toContain('TOKEN')
    expect(result.output.text).toContain('end')
    expect(result.sandboxBlocked).toContain(
      `reads of ${join(h.home, '.ssh')}, ${join(h.home, '.npmrc')} (a credential store, unreadable in the sandbox unless the mode gives it back`
    )
    const given = await run('cat ~/.npmrc', { ...OFFLINE, readableCredentials: ['npmrc'] })
    expect(given.output.text).toBe('TOKEN\n')
  }, 60_000)

  it("sees the task shell's functions and aliases, and cannot change them", async () => {
    const task = h.service.forTask('sandboxed', h.root)
    await task.execute({ command: `greet() { echo "hello $1"; }; alias ll='echo listing'`, timeoutMs: 30_000 })
    const result = await run('greet sandbox; ll; greet() { echo changed; }', OFFLINE)
    expect(result.output.text).toBe('hello sandbox\nlisting\n')
    expect(result.notes.join(' ')).toContain("It ran in the sandbox's own shell")
    expect(formatCommandResult(result)).toContain(
      'functions, aliases and options it set there are not kept for the next command'
    )
    expect((await run('greet plain', OFFLINE)).notes).toEqual([])
    expect((await task.execute({ command: 'greet again', timeoutMs: 30_000 })).output.text).toBe('hello again\n')
  }, 60_000)

  it('with two sandboxed commands running, the item names the one naming the host first; one whose list allows it is no candidate', async () => {
    const other = (command: string, setting: EffectiveSandbox) =>
      h.service.forTask('other', h.root).execute({
        command,
        timeoutMs: 30_000,
        sandbox: (text, taskShell) =>
          shell.sandbox.prepare({
            taskId: 'other',
            modeSlug: 'ask',
            modeName: 'Ask',
            command: text,
            workspaceRoot: h.root,
            sandbox: setting,
            shell: taskShell
          })
      })
    const started = async (): Promise<void> => {
      await until(
        async () => h.service.forTask('other', h.root).processes().length === 1,
        'the other command to start',
        30_000
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
    }

    // The other command runs until the test lets it finish, however long the ask takes.
    const waitFor = (name: string) => `until [ -f ${name} ]; do sleep .05; done; echo slept`
    const sleeping = other(waitFor('go1'), ASKING)
    await started()
    const fetching = run(fetchCommand(), ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    const [item] = approvals.list()
    expect(item.summary).toBe(
      `${fetchCommand()} (or one of 1 other sandboxed commands: ${waitFor('go1')}) wants 127.0.0.1:${port}`
    )
    expect(item.taskId).toBe('sandboxed')
    approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    expect((await fetching).output.text).toBe('hello from the test server\n')
    await writeFile(join(h.root, 'go1'), '')
    expect((await sleeping).output.text).toBe('slept\n')

    // A command whose own list lets the host through would not have been asked about.
    const listed = other(waitFor('go2'), { network: 'allow-list', allowedDomains: ['127.0.0.1'] })
    await started()
    const alone = run(fetchCommand(), ASKING)
    await until(() => approvals.list().length === 1, 'the network approval item', 30_000)
    expect(approvals.list()[0].summary).toBe(`${fetchCommand()} wants 127.0.0.1:${port}`)
    approvals.decide({ approvalId: approvals.list()[0].id, outcome: 'approve', scope: 'call' })
    expect((await alone).output.text).toBe('hello from the test server\n')
    await writeFile(join(h.root, 'go2'), '')
    expect((await listed).output.text).toBe('slept\n')
    await Promise.all(['go1', 'go2'].map((name) => rm(join(h.root, name))))
  }, 90_000)

  it('moves a sandboxed command to the background and cancels one like any other', async () => {
    const task = h.service.forTask('sandboxed', h.root)
    const background = await run('echo started; while [ ! -f go ]; do sleep 0.05; done; echo finished', OFFLINE, {
      timeoutMs: 1500
    })
    expect(background.outcome).toBe('background')
    expect(background.output.text).toBe('started\n')
    await writeFile(join(h.root, 'go'), '')
    await until(() => task.processes().length === 0, 'the background command to finish', 30_000)
    expect((await task.readOutput(background.artifactId, {})).text).toBe('started\nfinished\n')

    const controller = new AbortController()
    const cancelled = run('echo waiting; sleep 60', OFFLINE, { signal: controller.signal })
    await until(async () => task.processes().length === 1, 'the command to start', 30_000)
    await new Promise((resolve) => setTimeout(resolve, 500))
    controller.abort()
    expect((await cancelled).outcome).toBe('cancelled')
    await rm(join(h.root, 'go'))
  }, 90_000)
})

describe('where the sandbox cannot start', () => {
  it('says bubblewrap is missing (PATH without it), with the fix, and runs nothing', async () => {
    const service = createSandboxService({ path: () => '/nonexistent', askNetwork: async () => ({ allow: false }) })
    const status = await service.status()
    expect(status).toMatchObject({ available: false, platform: 'linux' })
    if (status.available) return
    expect(status.reason).toBe('bubblewrap (bwrap), socat, ripgrep (rg) are not installed')
    expect(status.fix).toContain('apt-get install bubblewrap socat ripgrep')
    await expect(
      service.prepare({
        taskId: 't',
        modeSlug: 'code',
        modeName: 'Code',
        command: 'true',
        workspaceRoot: '/tmp',
        sandbox: { network: 'none', allowedDomains: [] }
      })
    ).rejects.toThrow(/The sandbox cannot start here: .*Nothing was run\./)
    await service.dispose()
  })
})

describe('in a zsh task shell', () => {
  it("sandboxed commands see the shell's functions and aliases", async () => {
    const h = await createHarness({ shell: '/usr/bin/zsh' })
    const sandbox = createSandboxService({ askNetwork: async () => ({ allow: false }) })
    try {
      const task = h.service.forTask('zsh', h.root)
      await task.execute({ command: `greet() { echo "hello $1"; }; alias ll='echo listing'`, timeoutMs: 30_000 })
      const result = await task.execute({
        command: 'greet sandbox; ll; echo "it\'s quoted"',
        timeoutMs: 30_000,
        sandbox: (text, shell) =>
          sandbox.prepare({
            taskId: 'zsh',
            modeSlug: 'code',
            modeName: 'Code',
            command: text,
            workspaceRoot: h.root,
            sandbox: { network: 'none', allowedDomains: [] },
            shell
          })
      })
      expect(result.output.text).toBe("hello sandbox\nlisting\nit's quoted\n")
    } finally {
      await sandbox.dispose()
      await h.cleanup()
    }
  }, 60_000)
})
