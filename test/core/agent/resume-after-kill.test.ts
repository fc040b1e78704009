import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { readTaskLog } from '../../../src/main/core/store/task-log'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, toolResultsIn, type FakeProvider, type FakeTurn } from '../../support/fake-provider'
import { autopilotMode, builderMode, createHarness, type Harness } from './support/harness'
import { stringify } from 'yaml'
import { writeFileSync } from 'node:fs'

const root = resolve(__dirname, '../../..')
const delegatorMode = {
  ...builderMode,
  slug: 'delegator',
  name: 'Delegator',
  autoApprove: { read: true, subtasks: true }
}
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs')
const childScript = join(__dirname, 'support/crash-child.ts')

let harness: Harness | undefined
let child: ChildProcess | undefined
let childFake: FakeProvider | undefined
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL')
  await childFake?.close()
  await harness?.close()
  harness = undefined
  child = undefined
  childFake = undefined
})

/** Runs a core in a child process until it reaches `waitFor`, then kills it with SIGKILL. */
async function runAndKill(
  turns: FakeTurn[],
  waitFor: 'approval' | 'tool-started',
  mode: string,
  files: Record<string, string> = {}
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-crash-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-crash-ws-')))
  for (const [path, content] of Object.entries(files)) writeFileSync(join(workspace, path), content)
  writeFileSync(join(dataDir, 'modes.yaml'), stringify({ customModes: [builderMode, autopilotMode, delegatorMode] }))
  childFake = await startFakeProvider({ name: 'crash child', turns })
  child = spawn(process.execPath, [jiti, childScript], {
    cwd: root,
    env: {
      ...process.env,
      CRASH_DATA_DIR: dataDir,
      CRASH_WORKSPACE: workspace,
      CRASH_WAIT_FOR: waitFor,
      CRASH_MODE: mode,
      CRASH_PROVIDER_URL: childFake.anthropicBaseUrl
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const taskId = await new Promise<string>((resolveReady, reject) => {
    let out = ''
    child!.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const ready = /READY (\S+)/.exec(out)
      if (ready) resolveReady(ready[1])
    })
    child!.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)))
  })
  const exited = new Promise((r) => child!.once('exit', r))
  child.kill('SIGKILL')
  await exited
  return { dataDir, workspace, taskId }
}

describe('resume after the process is killed with SIGKILL', () => {
  it('a pending approval is asked again after the reload; approving continues the task', async () => {
    const { dataDir, workspace, taskId } = await runAndKill(
      [
        {
          toolCalls: [
            { name: 'write_to_file', input: { path: 'made.txt', content: 'made before the crash\n' } },
            { name: 'execute_command', input: { command: 'echo after-crash > ran.txt' } }
          ]
        }
      ],
      'approval',
      'builder'
    )
    harness = await createHarness({
      dataDir,
      workspace,
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'recovered' } }] }]
    })
    expect(harness.services.tasks.list().find((t) => t.id === taskId)?.status).toBe('interrupted')
    expect(await harness.read('made.txt')).toBe('made before the crash\n')

    const resumed = await harness.services.tasks.recover({ reaskApprovals: true })
    expect(resumed).toEqual([taskId])
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ taskId, tool: 'execute_command', kind: 'tool' })
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion')
    expect((await harness.read('ran.txt')).trim()).toBe('after-crash')
    // The write that had finished before the kill is not run again: its recorded result is reused.
    const results = toolResultsIn(harness.fake.requests.at(-1)!)
    expect(results).toHaveLength(2)
    expect(results[0].text).toContain('made.txt')
    expect(results[1].text).toContain('exited with code 0')
  })

  it('an edit whose review was pending is proposed again as the same review; nothing was written, nothing is lost', async () => {
    const { dataDir, workspace, taskId } = await runAndKill(
      [{ toolCalls: [{ name: 'write_to_file', input: { path: 'notes.txt', content: 'alpha\nOMEGA\n' } }] }],
      'approval',
      'code',
      { 'notes.txt': 'alpha\nbeta\n' }
    )
    const before = (await readTaskLog(join(dataDir, 'tasks', taskId, 'log.jsonl'))).records
    const proposed = before.flatMap((r) => (r.r === 'event' && r.event.type === 'change' ? [r.event] : []))
    expect(proposed).toHaveLength(1)
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
    expect(readdirSync(workspace)).toEqual(['notes.txt'])

    harness = await createHarness({
      dataDir,
      workspace,
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'edited' } }] }]
    })
    expect(harness.services.tasks.list().find((t) => t.id === taskId)?.status).toBe('interrupted')
    expect(await harness.services.tasks.recover({ reaskApprovals: true })).toEqual([taskId])
    const item = await harness.waitForApproval()
    // The same review: an edit item for the same call, the same change id and the same diff.
    expect(item).toMatchObject({ taskId, kind: 'edit', tool: 'write_to_file', callId: proposed[0].callId })
    expect(item.changes?.map((c) => c.id)).toEqual([proposed[0].changeId])
    expect(item.changes?.[0]).toMatchObject({
      original: 'alpha\nbeta\n',
      proposed: 'alpha\nOMEGA\n',
      status: 'proposed'
    })
    expect(await harness.read('notes.txt')).toBe('alpha\nbeta\n')

    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion')
    expect(await harness.read('notes.txt')).toBe('alpha\nOMEGA\n')
    // The model gets the edit's real result, never "interrupted"; the one request is the one after it.
    expect(harness.fake.requests.filter((r) => r.protocol !== 'unknown')).toHaveLength(1)
    const [result] = toolResultsIn(harness.fake.requests.at(-1)!)
    expect(result).toMatchObject({ isError: false })
    expect(result.text).toContain('notes.txt')
    expect(result.text).not.toContain('interrupted')
    // Nothing is lost: the events from before the kill are all still there, and the change ends applied.
    const events = await harness.services.tasks.events(taskId)
    const beforeEvents = before.flatMap((r) => (r.r === 'event' ? [r.event] : []))
    expect(events.slice(0, beforeEvents.length)).toEqual(beforeEvents)
    const changes = events.filter((e) => e.type === 'change')
    expect(new Set(changes.map((e) => e.type === 'change' && e.changeId))).toEqual(new Set([proposed[0].changeId]))
    expect(changes.at(-1)).toMatchObject({ status: 'applied' })
  })

  it('a torn last log line is set aside in a sidecar and reported; the task opens with everything before it and goes on', async () => {
    const { dataDir, workspace, taskId } = await runAndKill(
      [{ toolCalls: [{ name: 'execute_command', input: { command: 'echo resumed > ran.txt' } }] }],
      'approval',
      'builder'
    )
    const log = join(dataDir, 'tasks', taskId, 'log.jsonl')
    const intact = readFileSync(log, 'utf8')
    // What a kill in the middle of a write leaves: the start of a record, no newline.
    const torn = '{"r":"event","event":{"type":"text-delta","messageId":"m9","text":"half a rec'
    appendFileSync(log, torn)

    harness = await createHarness({
      dataDir,
      workspace,
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'after the tear' } }] }]
    })
    // Viewed before anything is appended: the problem is shown with the events.
    const viewed = await harness.services.tasks.events(taskId)
    expect(viewed.at(-1)).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/log is damaged at line \d+: incomplete last line/)
    })

    expect(await harness.services.tasks.recover({ reaskApprovals: true })).toEqual([taskId])
    const sidecars = readdirSync(join(dataDir, 'tasks', taskId)).filter((name) => name.startsWith('log.jsonl.torn-'))
    expect(sidecars).toHaveLength(1)
    expect(readFileSync(join(dataDir, 'tasks', taskId, sidecars[0]), 'utf8')).toBe(torn)
    expect(readFileSync(log, 'utf8').startsWith(intact)).toBe(true)
    const item = await harness.waitForApproval()
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion')
    await harness.services.tasks.whenSettled(taskId)
    expect((await harness.read('ran.txt')).trim()).toBe('resumed')

    // The user is told once, in the chat; every record after the tear is whole and nothing before it is lost.
    const events = await harness.services.tasks.events(taskId)
    expect(events.filter((e) => e.type === 'error' && e.message.includes(sidecars[0]))).toHaveLength(1)
    const reread = await readTaskLog(log)
    expect(reread.problems).toEqual([])
    const beforeTear = intact
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(reread.records.slice(0, beforeTear.length)).toEqual(beforeTear)
    expect(reread.records.some((r) => r.r === 'event' && r.event.type === 'completion')).toBe(true)
  })

  it('a tool call running at the kill is marked interrupted; the user resumes and the model is told', async () => {
    const { dataDir, workspace, taskId } = await runAndKill(
      [{ toolCalls: [{ name: 'execute_command', input: { command: 'sleep 30' } }] }],
      'tool-started',
      'autopilot'
    )
    harness = await createHarness({
      dataDir,
      workspace,
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'ok' } }] }]
    })
    expect(harness.services.tasks.list().find((t) => t.id === taskId)?.status).toBe('interrupted')
    expect(await harness.services.tasks.recover({ reaskApprovals: true })).toEqual([])
    const events = await harness.services.tasks.events(taskId)
    expect(events.some((e) => e.type === 'tool-started')).toBe(true)

    await harness.services.tasks.resume(taskId)
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion')
    const [result] = toolResultsIn(harness.fake.requests.at(-1)!)
    expect(result).toMatchObject({ isError: true })
    expect(result.text).toContain('interrupted')
  })

  it('a parent killed while its subtask waited picks the subtask up again on resume and receives its result', async () => {
    const { dataDir, workspace, taskId } = await runAndKill(
      [
        { toolCalls: [{ name: 'new_task', input: { mode: 'builder', message: 'Write the marker file.' } }] },
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo child > marker.txt' } }] }
      ],
      'approval',
      'delegator'
    )
    harness = await createHarness({
      dataDir,
      workspace,
      modes: [builderMode, autopilotMode, delegatorMode],
      turns: [
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'marker written' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'delegated and done' } }] }
      ]
    })
    const tasks = harness.services.tasks.list()
    const parent = tasks.find((t) => !t.parentId)!
    const child = tasks.find((t) => t.parentId === parent.id)!
    expect(child.id).toBe(taskId)
    expect([parent.status, child.status]).toEqual(['interrupted', 'interrupted'])

    // The child was waiting on an approval: it is asked again at start-up.
    expect(await harness.services.tasks.recover({ reaskApprovals: true })).toEqual([child.id])
    await harness.services.tasks.resume(parent.id)
    const item = await harness.waitForApproval((i) => i.taskId === child.id)
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === parent.id && e.type === 'completion')
    expect((await harness.read('marker.txt')).trim()).toBe('child')
    const [result] = toolResultsIn(harness.fake.requests.at(-1)!)
    expect(result.text).toContain('marker written')
    expect(result.isError).toBe(false)
  })
})
