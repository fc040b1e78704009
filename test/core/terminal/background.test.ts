import { existsSync, readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, until, type Harness } from './harness'

const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^\d+ \(.*\) [ZX]/.test(stat)
  } catch {
    return false
  }
}

describe('background commands', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness()
  })
  afterAll(async () => h.cleanup())

  it('moves a command to the background at the model timeout with the output so far, and it finishes later', async () => {
    const task = h.service.forTask('bg', h.root)
    const result = await task.execute({
      command: 'echo started; while [ ! -f go ]; do sleep 0.05; done; echo finished',
      timeoutMs: 300
    })
    expect(result.outcome).toBe('background')
    expect(result.output.text).toBe('started\n')
    expect(task.processes().map((p) => p.artifactId)).toEqual([result.artifactId])
    expect(task.describeProcesses()).toContain('while [ ! -f go ]')
    // The task shell is busy: the next command runs in a second shell of the same task.
    const meanwhile = await task.execute({ command: 'touch go; echo touched' })
    expect(meanwhile.terminalId).not.toBe(result.terminalId)
    await until(() => task.processes().length === 0, 'the background command to finish')
    const page = await task.readOutput(result.artifactId, {})
    expect(page.text).toBe('started\nfinished\n')
    expect(page.command?.exitCode).toBe(0)
  })

  it('keeps a server running whose output is read later, then stops it', async () => {
    const task = h.service.forTask('server', h.root)
    await writeFile(
      join(h.root, 'server.cjs'),
      `const http = require('node:http')
const server = http.createServer((req, res) => { console.log('request ' + req.url); res.end('ok') })
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port))
process.on('SIGTERM', () => { console.log('shutting down'); server.close(); process.exit(0) })`
    )
    const result = await task.execute({ command: 'node server.cjs', timeoutMs: 1500 })
    expect(result.outcome).toBe('background')
    let port = 0
    await until(async () => {
      const found = await task.readOutput(result.artifactId, { search: 'listening on' })
      port = Number(/listening on (\d+)/.exec(found.text)?.[1] ?? 0)
      return port > 0
    }, 'the server to listen')
    const response = await fetch(`http://127.0.0.1:${port}/hello`)
    expect(await response.text()).toBe('ok')
    await until(
      async () => (await task.readOutput(result.artifactId, {})).text.includes('request /hello'),
      'the request log'
    )
    const listed = h.service.list().find((t) => t.id === result.terminalId)!
    expect(listed.command).toMatchObject({ command: 'node server.cjs', state: 'running', background: true })
    expect(listed.command?.pid).toBeGreaterThan(0)
    await h.service.stopCommand(result.terminalId)
    expect(task.processes()).toEqual([])
    const after = h.service.list().find((t) => t.id === result.terminalId)
    expect(after?.command?.state).toBe('killed')
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow()
  })

  it.skipIf(process.platform !== 'linux')('kills the whole process tree on cancel', async () => {
    const task = h.service.forTask('tree', h.root)
    const pids = join(h.root, 'pids.txt')
    const controller = new AbortController()
    const pending = task.execute({
      command: `(sleep 300 & echo $! >> ${pids}; sh -c 'sleep 301 & echo $! >> ${pids}; wait' & echo $! >> ${pids}; wait); echo never`,
      signal: controller.signal
    })
    await until(
      async () => existsSync(pids) && (await readFile(pids, 'utf8')).trim().split('\n').length >= 3,
      'the tree to start'
    )
    const started = (await readFile(pids, 'utf8')).trim().split('\n').map(Number)
    expect(started.every(alive)).toBe(true)
    controller.abort()
    const result = await pending
    expect(result.outcome).toBe('cancelled')
    expect(result.output.text).not.toContain('never')
    await until(() => !started.some(alive), 'every process of the tree to end')
  })

  it('kills a command at the user’s hard limit', async () => {
    const limited = await createHarness({ deps: { hardLimitMs: () => 400 } })
    try {
      const result = await limited.service.forTask('limit', limited.root).execute({ command: 'echo begun; sleep 60' })
      expect(result.outcome).toBe('hard-limit')
      expect(result.output.text).toBe('begun\n')
    } finally {
      await limited.cleanup()
    }
  })

  it('ends a task’s terminals with the task, except the ones the user keeps', async () => {
    const task = h.service.forTask('ending', h.root)
    const kept = await task.execute({ command: 'sleep 120', timeoutMs: 200 })
    const dropped = await task.execute({ command: 'sleep 121', timeoutMs: 200 })
    h.service.keep(kept.terminalId, true)
    await h.service.endTask('ending')
    const ids = h.service.list().map((t) => t.id)
    expect(ids).toContain(kept.terminalId)
    expect(ids).not.toContain(dropped.terminalId)
    expect(task.processes().map((p) => p.command)).toEqual(['sleep 120'])
    await h.service.kill(kept.terminalId)
  })
})
