import { spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, promises as fs, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openTaskLogWriter, readTaskLog, setAsideTornTail } from '../../../src/main/core/store/task-log'
import { createTaskStore } from '../../../src/main/core/store/task-store'
import { replayRecords } from '../../../src/main/core/store/task-replay'
import { exportTaskJson, exportTaskMarkdown } from '../../../src/main/core/store/task-export'
import type { TaskMeta } from '../../../src/main/core/store/task-records'

const tempDir = () => mkdtempSync(join(tmpdir(), 'modus-store-'))
const meta = (id: string, title = 'Fix the tests'): TaskMeta => ({
  id,
  title,
  mode: 'code',
  workspace: '/ws',
  createdAt: 1_000
})

describe('task log', () => {
  it('writes records as they happen and merges consecutive text deltas of one message', async () => {
    const file = join(tempDir(), 'log.jsonl')
    const writer = openTaskLogWriter(file)
    writer.append({ r: 'meta', meta: meta('t1') })
    for (const text of ['Hel', 'lo ', 'world'])
      writer.append({ r: 'event', event: { type: 'text-delta', messageId: 'm1', text } })
    writer.append({ r: 'event', event: { type: 'status', at: 2_000, status: 'completed' } })
    writer.close()
    const { records, problems } = await readTaskLog(file)
    expect(problems).toEqual([])
    expect(records.map((r) => (r.r === 'event' ? r.event.type : r.r))).toEqual(['meta', 'text-delta', 'status'])
    expect(records[1]).toMatchObject({ event: { text: 'Hello world' } })
    expect(writer.size()).toBe(readFileSync(file).length)
  })

  it('a torn last line (killed mid-write) and a damaged line are skipped and reported, the rest kept', async () => {
    const file = join(tempDir(), 'log.jsonl')
    const writer = openTaskLogWriter(file)
    writer.append({ r: 'meta', meta: meta('t2') })
    writer.close()
    appendFileSync(file, '{"r":"event","event":{"type":"nope"}}\n')
    appendFileSync(file, JSON.stringify({ r: 'event', event: { type: 'user-message', at: 5, text: 'hi' } }) + '\n')
    appendFileSync(file, '{"r":"event","event":{"type":"user-mes')
    const { records, problems } = await readTaskLog(file)
    expect(records).toHaveLength(2)
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/^line 2: .*skipped/)
    expect(problems[1]).toMatch(/^line 4: incomplete last line/)
  })
})

describe('torn tail before appending again', () => {
  it('a whole record that only lost its newline stays; a partial one goes to a sidecar, byte for byte', async () => {
    const dir = tempDir()
    const file = join(dir, 'log.jsonl')
    const whole = JSON.stringify({ r: 'event', event: { type: 'user-message', at: 5, text: 'hi' } })
    writeFileSync(file, JSON.stringify({ r: 'meta', meta: meta('g1') }) + '\n' + whole)
    expect(await setAsideTornTail(file, 42)).toBeNull()
    expect((await readTaskLog(file)).records).toHaveLength(2)

    appendFileSync(file, '{"r":"event","event":{"ty\u00e9')
    const message = await setAsideTornTail(file, 43)
    expect(message).toContain('log.jsonl.torn-43')
    expect(readFileSync(join(dir, 'log.jsonl.torn-43'), 'utf8')).toBe('{"r":"event","event":{"ty\u00e9')
    const reread = await readTaskLog(file)
    expect(reread.problems).toEqual([])
    expect(reread.records).toHaveLength(2)
    expect(await setAsideTornTail(file, 44)).toBeNull()
  })
})

describe('task store and index', () => {
  it('lists tasks from their summaries and rebuilds a damaged summary from the log, saying so', async () => {
    const dir = tempDir()
    const store = await createTaskStore(dir)
    const writer = store.create(meta('a1', 'First task'))
    writer.append({ r: 'event', event: { type: 'status', at: 3_000, status: 'running' } })
    writer.close()
    store.putSummary({
      id: 'a1',
      title: 'First task',
      mode: 'code',
      status: 'running',
      createdAt: 1_000,
      updatedAt: 3_000
    })
    await store.flush()
    expect(JSON.parse(readFileSync(join(dir, 'a1', 'summary.json'), 'utf8')).summary).toMatchObject({
      id: 'a1',
      status: 'running'
    })

    writeFileSync(join(dir, 'a1', 'summary.json'), '{"version":1,"summary":{"id":')
    const reopened = await createTaskStore(dir)
    expect(reopened.problems()[0]).toContain("was damaged; it was rebuilt from the task's log")
    // It was running when the process went away: it reloads as interrupted.
    expect(reopened.list()).toEqual([expect.objectContaining({ id: 'a1', title: 'First task', status: 'interrupted' })])
  })

  it.skipIf(process.platform !== 'linux')(
    'a running task whose process is alive stays running; one whose process is gone shows interrupted',
    async () => {
      const dir = tempDir()
      const store = await createTaskStore(dir)
      store.create(meta('o1')).close()
      store.create(meta('o2')).close()
      const running = { title: 'x', mode: 'code', status: 'running' as const, createdAt: 1, updatedAt: 2 }
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
      try {
        const started = (pid: number) =>
          `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}:${readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19]}`
        const owner = { pid: child.pid!, started: started(child.pid!), instance: 'other' }
        writeFileSync(
          join(dir, 'o1', 'summary.json'),
          JSON.stringify({ version: 1, summary: { id: 'o1', ...running }, owner })
        )
        // Same live pid, but another start time: the pid was reused by a different process.
        writeFileSync(
          join(dir, 'o2', 'summary.json'),
          JSON.stringify({ version: 1, summary: { id: 'o2', ...running }, owner: { ...owner, started: 'x:1' } })
        )
        const reopened = await createTaskStore(dir)
        expect(reopened.summary('o1')?.status).toBe('running')
        expect(reopened.runningElsewhere('o1')).toBe(child.pid)
        expect(reopened.summary('o2')?.status).toBe('interrupted')
      } finally {
        child.kill('SIGKILL')
      }
      await new Promise((done) => child.once('exit', done))
      const afterExit = await createTaskStore(dir)
      expect(afterExit.summary('o1')?.status).toBe('interrupted')
      expect(afterExit.runningElsewhere('o1')).toBeNull()
    }
  )

  it('an index.json left by an older version is read for tasks that have no summary file yet', async () => {
    const dir = tempDir()
    const store = await createTaskStore(dir)
    store.create(meta('l1', 'From the log')).close()
    writeFileSync(
      join(dir, 'index.json'),
      JSON.stringify({
        version: 1,
        tasks: [
          { id: 'l1', title: 'Renamed in the index', mode: 'code', status: 'completed', createdAt: 1, updatedAt: 2 }
        ]
      })
    )
    expect((await createTaskStore(dir)).summary('l1')).toMatchObject({
      title: 'Renamed in the index',
      status: 'completed'
    })
  })

  it('an index that still says running after a restart shows the task as interrupted', async () => {
    const dir = tempDir()
    const store = await createTaskStore(dir)
    store.create(meta('b1')).close()
    store.putSummary({ id: 'b1', title: 'x', mode: 'code', status: 'waiting', createdAt: 1, updatedAt: 2 })
    await store.flush()
    expect((await createTaskStore(dir)).summary('b1')?.status).toBe('interrupted')
  })

  it('a task whose log exists but whose index entry was not saved yet (crash) is found again', async () => {
    const dir = tempDir()
    const store = await createTaskStore(dir)
    store.create(meta('k1', 'Saved')).close()
    store.putSummary({ id: 'k1', title: 'Saved', mode: 'code', status: 'idle', createdAt: 1, updatedAt: 2 })
    await store.flush()
    store.create(meta('k2', 'Created just before the crash')).close()
    const reopened = await createTaskStore(dir)
    expect(
      reopened
        .list()
        .map((t) => t.title)
        .sort()
    ).toEqual(['Created just before the crash', 'Saved'])
  })

  it('refuses ids that would leave the tasks folder', async () => {
    const store = await createTaskStore(tempDir())
    await expect(store.load('../../etc')).rejects.toThrow('Invalid task id')
  })

  it('deletes a task: its folder and its index entry', async () => {
    const dir = tempDir()
    const store = await createTaskStore(dir)
    store.create(meta('c1')).close()
    store.putSummary({ id: 'c1', title: 'x', mode: 'code', status: 'idle', createdAt: 1, updatedAt: 2 })
    expect(await store.delete('c1')).toBe(true)
    await expect(fs.stat(join(dir, 'c1'))).rejects.toThrow()
    expect(store.list()).toEqual([])
  })
})

describe('replay and export', () => {
  it('rebuilds the model view (hidden messages, summaries placed before kept turns) and what the UI saw', () => {
    const task = replayRecords([
      { r: 'meta', meta: meta('d1') },
      { r: 'message', id: 'u1', message: { role: 'user', content: [{ type: 'text', text: 'task' }] } },
      {
        r: 'message',
        id: 'a1',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'x' } }]
        }
      },
      { r: 'event', event: { type: 'tool-started', at: 2, callId: 'c1' } },
      {
        r: 'message',
        id: 'u2',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: 'x' }], isError: false }]
        }
      },
      { r: 'message', id: 'a2', message: { role: 'assistant', content: [{ type: 'text', text: 'later' }] } },
      { r: 'message', id: 's1', message: { role: 'user', content: [{ type: 'text', text: 'summary' }] }, before: 'a2' },
      { r: 'hide', ids: ['u1', 'a1', 'u2'], reason: 'condense' },
      {
        r: 'event',
        event: {
          type: 'approval-requested',
          at: 3,
          approvalId: 'p1',
          kind: 'tool',
          summary: 's',
          rule: 'r',
          reason: 'why'
        }
      },
      {
        r: 'event',
        event: {
          type: 'usage',
          at: 4,
          usage: {
            inputTokens: 10,
            outputTokens: 5,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            costUsd: 0.5,
            contextTokens: 15,
            contextWindow: 100
          }
        }
      },
      { r: 'event', event: { type: 'status', at: 5, status: 'waiting' } }
    ])!
    expect(task.messages.filter((m) => !m.hidden).map((m) => m.id)).toEqual(['s1', 'a2'])
    expect(task.startedWithoutResult).toEqual(new Set(['c1']))
    expect(task.unansweredApprovals.map((a) => a.approvalId)).toEqual(['p1'])
    expect(task).toMatchObject({ costUsd: 0.5, requests: 1, contextTokens: 15, lastStatus: 'waiting' })
  })

  it('a call still waiting for its approval did not start, even where an older log recorded a start before asking', () => {
    const task = replayRecords([
      { r: 'meta', meta: meta('f1') },
      {
        r: 'message',
        id: 'a1',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'e1', name: 'write_to_file', input: { path: 'x', content: 'y' } }]
        }
      },
      { r: 'event', event: { type: 'tool-started', at: 2, callId: 'e1' } },
      {
        r: 'event',
        event: { type: 'change', at: 3, changeId: 'ch1', callId: 'e1', path: 'x', status: 'proposed', auto: false }
      },
      {
        r: 'event',
        event: {
          type: 'approval-requested',
          at: 4,
          approvalId: 'p1',
          callId: 'e1',
          kind: 'edit',
          summary: 's',
          rule: 'r',
          reason: 'why'
        }
      },
      { r: 'event', event: { type: 'status', at: 5, status: 'waiting' } }
    ])!
    expect(task.unansweredApprovals.map((a) => a.callId)).toEqual(['e1'])
    expect(task.startedWithoutResult).toEqual(new Set())
  })

  it('exports Markdown a person can read and JSON with everything', () => {
    const task = replayRecords([
      { r: 'meta', meta: meta('e1', 'Rename a function') },
      { r: 'event', event: { type: 'user-message', at: 1, text: 'Rename foo to bar' } },
      { r: 'event', event: { type: 'text-delta', messageId: 'm', text: 'Reading first.' } },
      {
        r: 'event',
        event: { type: 'tool-call', at: 2, messageId: 'm', callId: 'c', name: 'read_file', args: { path: 'a.ts' } }
      },
      { r: 'event', event: { type: 'tool-result', at: 3, callId: 'c', isError: false, text: '1 | foo()' } },
      { r: 'event', event: { type: 'completion', at: 4, result: 'Renamed.' } }
    ])!
    const markdown = exportTaskMarkdown(task)
    expect(markdown).toContain('# Rename a function')
    expect(markdown).toContain('## User\n\nRename foo to bar')
    expect(markdown).toContain('## Assistant\n\nReading first.')
    expect(markdown).toContain('### Tool call: read_file')
    expect(markdown).toContain('1 | foo()')
    expect(markdown).toContain('## Result\n\nRenamed.')
    const json = JSON.parse(exportTaskJson(task))
    expect(json.meta.id).toBe('e1')
    expect(json.events).toHaveLength(5)
  })
})
