import { afterEach, describe, expect, it } from 'vitest'
import type { ModeConfigInput } from '../../../src/shared/modes/schema'
import type { BuiltInExecutors } from '../../../src/main/core/tools/executors'
import { readFileExecutor } from '../../../src/main/core/tools/read-file'
import { toolNamesOf, toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { countLinesTool } from '../../support/tools/count-lines'
import { countLinesExecutor } from '../../support/tools/count-lines-executor'
import { builderMode, createHarness, type Harness } from './support/harness'

/**
 * README › CONTRIBUTING: a tool is its definition and its executor, registered once. count_lines
 * (test/support/tools) is added exactly that way; nothing in the pipeline or the policy names it.
 */
let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const askingReader: ModeConfigInput = {
  slug: 'asking-reader',
  name: 'Asking reader',
  roleDefinition: 'You read and ask.',
  groups: ['read']
}
const commandsOnly: ModeConfigInput = {
  slug: 'commands-only',
  name: 'Commands only',
  roleDefinition: 'You run commands.',
  groups: ['command']
}
const countCall = { toolCalls: [{ name: 'count_lines', input: { path: 'a.txt' } }] }
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')

async function harnessWithTool(): Promise<Harness> {
  const h = await createHarness({
    modes: [builderMode, askingReader, commandsOnly],
    files: { 'a.txt': 'one\ntwo\nthree\n' },
    turns: [countCall, done]
  })
  h.services.tools.register('test-suite', [{ definition: countLinesTool, executor: countLinesExecutor }])
  return h
}

async function start(h: Harness, mode: string) {
  const task = await h.services.tasks.start({ text: 'count the lines of a.txt', mode, workspace: h.workspace })
  return task.id
}

describe('adding a tool', () => {
  it('offers a read tool in read modes and auto-approves it with the read toggle, no policy edit', async () => {
    harness = await harnessWithTool()
    const taskId = await start(harness, 'builder')
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion', 'completion')
    expect(toolNamesOf(modelRequests(harness)[0])).toContain('count_lines')
    expect(harness.eventsOf(taskId).find((e) => e.type === 'tool-decision')).toMatchObject({
      decision: 'allow',
      rule: 'auto-approve.read'
    })
    expect(toolResultsIn(modelRequests(harness)[1])[0]).toMatchObject({ isError: false, text: 'a.txt has 3 lines.' })
  })

  it('asks with its own summary when the mode does not auto-approve reads', async () => {
    harness = await harnessWithTool()
    const taskId = await start(harness, 'asking-reader')
    const item = await harness.waitForApproval()
    expect(item).toMatchObject({ tool: 'count_lines', summary: 'Count lines of a.txt' })
    harness.services.approvals.decide({ approvalId: item.id, outcome: 'approve', scope: 'call' })
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion', 'completion')
    expect(toolResultsIn(modelRequests(harness)[1])[0].text).toBe('a.txt has 3 lines.')
  })

  it('is neither offered nor run in a mode without its group', async () => {
    harness = await harnessWithTool()
    const taskId = await start(harness, 'commands-only')
    await harness.waitForEvent((e, id) => id === taskId && e.type === 'completion', 'completion')
    expect(toolNamesOf(modelRequests(harness)[0])).not.toContain('count_lines')
    const [result] = toolResultsIn(modelRequests(harness)[1])
    expect(result).toMatchObject({ isError: true })
    expect(result.text).toContain('Tool "count_lines" is not allowed')
  })

  it('refuses a run-time tool that takes a built-in name', async () => {
    harness = await createHarness()
    expect(() =>
      harness!.services.tools.register('test-suite', [
        { definition: { ...countLinesTool, name: 'read_file' }, executor: countLinesExecutor }
      ])
    ).toThrow(/built-in tool name/)
  })

  it('makes a built-in tool without an executor a type error', () => {
    // @ts-expect-error every ToolName needs its executor: the table is typed Record<ToolName, …>
    const incomplete: BuiltInExecutors = { read_file: readFileExecutor }
    expect(Object.keys(incomplete)).toEqual(['read_file'])
  })
})
