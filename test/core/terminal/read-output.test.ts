import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReadCommandOutputExecutor } from '../../../src/main/core/tools/read-command-output'
import type { TaskTerminal } from '../../../src/main/core/terminal'
import { createHarness, until, type Harness } from './harness'

describe('read_command_output', () => {
  let h: Harness
  let task: TaskTerminal
  let artifactId: string
  beforeAll(async () => {
    h = await createHarness({ deps: { previewChars: 200 } })
    task = h.service.forTask('reader', h.root)
    // Lines "row 1" … "row 3000", each 'row N\n'.
    const result = await task.execute({
      command: 'for i in $(seq 1 3000); do echo "row $i"; done; printf "größe ✓\\n"'
    })
    expect(result.output.truncated).toBe(true)
    artifactId = result.artifactId
  })
  afterAll(async () => h.cleanup())

  const read = (
    params: { artifact_id: string; offset?: number; limit?: number; search?: string },
    taskId = 'reader',
    terminal = task
  ) =>
    createReadCommandOutputExecutor()
      .execute(params, { taskId, signal: new AbortController().signal, modelSupportsImages: false, terminal })
      .then((out) => ({ isError: out.isError, text: (out.content[0] as { text: string }).text }))

  it('pages by byte offset and limit', async () => {
    const first = await task.readOutput(artifactId, { offset: 0, limit: 12 })
    expect(first.text).toBe('row 1\nrow 2\n')
    expect(first.end).toBe(12)
    const next = await task.readOutput(artifactId, { offset: first.end, limit: 6 })
    expect(next.text).toBe('row 3\n')
    const out = await read({ artifact_id: artifactId, offset: 0, limit: 12 })
    expect(out.text).toContain('bytes 0–12 of')
    expect(out.text).toContain('offset=12')
    expect(out.text).toContain('exited with code 0')
  })

  it('never splits a UTF-8 character at the page edges', async () => {
    const whole = await task.readOutput(artifactId, { offset: 0, limit: 1_000_000 })
    const at = Buffer.byteLength(whole.text.slice(0, whole.text.indexOf('ö')))
    const page = await task.readOutput(artifactId, { offset: at + 1, limit: 4 })
    expect(page.text.startsWith('ße')).toBe(true)
    const cut = await task.readOutput(artifactId, { offset: at - 2, limit: 3 })
    expect(cut.text).toBe('grö')
  })

  it('searches case-insensitively with a regex and treats an invalid one literally', async () => {
    const hits = await task.readOutput(artifactId, { search: '^ROW 29\\d\\d$' })
    expect(hits.matches).toBe(100)
    expect(hits.text.split('\n')[0]).toBe('2900: row 2900')
    const literal = await read({ artifact_id: artifactId, search: 'row 1(' })
    expect(literal.text).toContain('matched literally')
    expect(literal.text).toContain('0 matching line(s)')
    const limited = await task.readOutput(artifactId, { search: 'row', limit: 50 })
    expect(limited.moreMatches).toBe(true)
  })

  it('refuses malformed ids and other tasks’ outputs', async () => {
    const bad = await read({ artifact_id: '../../settings.json' })
    expect(bad.isError).toBe(true)
    expect(bad.text).toContain('Invalid artifact_id')
    const other = h.service.forTask('someone-else', h.root)
    const foreign = await read({ artifact_id: artifactId }, 'someone-else', other)
    expect(foreign.isError).toBe(true)
    expect(foreign.text).toContain('No saved output')
  })

  it('reads a running command’s output as it grows', async () => {
    const running = await task.execute({
      command: 'echo first; while [ ! -f stop ]; do sleep 0.05; done; echo last',
      timeoutMs: 300
    })
    expect(running.outcome).toBe('background')
    const out = await read({ artifact_id: running.artifactId })
    expect(out.text).toContain('still running')
    expect(out.text).toContain('first')
    await task.execute({ command: 'touch stop' })
    await until(() => task.processes().length === 0, 'the command to end')
    expect((await task.readOutput(running.artifactId, {})).text).toBe('first\nlast\n')
  })
})
