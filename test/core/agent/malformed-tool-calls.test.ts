import { afterEach, describe, expect, it } from 'vitest'
import { toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { builderMode, createHarness, type Harness } from './support/harness'

/** The model is untrusted input: what it gets wrong in a call comes back as a result it can act on, on both wires. */
let harness: Harness | undefined
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  harness = undefined
})

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
/** Distinct reads, so the repetition limit does not take them for a loop. */
const good = (limit: number) => ({ name: 'read_file', input: { path: 'a.txt', limit } })
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

/** The tool calls of the assistant message the next request replays, as that wire carries their arguments. */
function replayedArguments(request: RecordedRequest): unknown[] {
  const messages: any[] = request.body.messages
  const assistant = [...messages].reverse().find((m) => m.role === 'assistant')
  if (request.protocol === 'anthropic')
    return assistant.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.input)
  return assistant.tool_calls.map((c: any) => c.function.arguments)
}

for (const protocol of ['anthropic', 'openai'] as const) {
  describe(`malformed tool calls (${protocol})`, () => {
    it('answers each with an is_error result that says what to fix, and the model recovers', async () => {
      harness = await createHarness({
        protocol,
        modes: [builderMode],
        files: { 'a.txt': 'alpha\n' },
        turns: [
          {
            // A good call between the bad ones keeps the consecutive-mistake limit from pausing the task.
            toolCalls: [
              { name: 'read_file', input: null, rawArguments: '{"path": "a.txt"' },
              good(1),
              { name: 'read_file', input: null, rawArguments: '["a.txt"]' },
              good(2),
              { name: 'read_file', input: { path: 5 } },
              good(3),
              { name: 'read_file', input: { path: 'a.txt', recursive: true } },
              good(4),
              { name: 'read_files', input: { path: 'a.txt' } }
            ]
          },
          done
        ]
      })
      const task = await harness.services.tasks.start({
        text: 'read a.txt',
        mode: 'builder',
        workspace: harness.workspace
      })
      await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion', 'completion')
      const results = toolResultsIn(modelRequests(harness)[1])
      const [cut, array, wrongType, extra, unknown] = results.filter((_, i) => i % 2 === 0)
      for (const answered of results.filter((_, i) => i % 2 === 1)) expect(answered.text).toContain('alpha')
      expect(cut.text).toMatch(/not valid JSON/)
      expect(array.text).toContain('the arguments must be a JSON object of named parameters, not an array')
      expect(wrongType.text).toContain("Invalid value for 'path': expected string, got a number.")
      expect(extra.text).toContain('Unknown parameter(s): recursive.')
      expect(unknown.text).toMatch(
        /Unknown tool "read_files"\. This tool does not exist\. Please use one of the available tools: .*read_file/
      )
      if (protocol === 'anthropic')
        for (const result of [cut, array, wrongType, extra, unknown]) expect(result.isError).toBe(true)
      // The replayed calls stay valid on the wire: Anthropic takes only an object as a tool_use input.
      const replayed = replayedArguments(modelRequests(harness)[1])
      expect(replayed).toHaveLength(9)
      if (protocol === 'anthropic')
        for (const input of replayed) {
          expect(input).toEqual(expect.any(Object))
          expect(Array.isArray(input)).toBe(false)
        }
    })
  })
}
