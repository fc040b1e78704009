import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createExecuteCommandExecutor } from '../../../src/main/core/tools/execute-command'
import { createLiveTail, lastLines, type LiveTailReport } from '../../../src/main/core/terminal/live-tail'
import { createHarness, type Harness } from './harness'

describe('the live tail of a command (the chat card)', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness()
  })
  afterAll(async () => h.cleanup())

  const runWithTail = async (command: string) => {
    const reports: LiveTailReport[] = []
    const result = await createExecuteCommandExecutor().execute(
      { command },
      {
        taskId: 'task-live',
        signal: new AbortController().signal,
        modelSupportsImages: false,
        terminal: h.service.forTask('task-live', h.root),
        reportOutput: (report) => reports.push(report)
      }
    )
    return { reports, result }
  }

  it('reports the last lines of a real pty command, escape sequences removed, before the result', async () => {
    const { reports } = await runWithTail(`for i in $(seq 1 30); do printf '\\033[32mline %s\\033[0m\\n' $i; done`)
    const last = reports.at(-1)!
    expect(last.lines).toBe(30)
    expect(last.tail.split('\n')).toEqual(Array.from({ length: 12 }, (_, i) => `line ${i + 19}`))
    expect(last.tail).not.toContain('\x1b')
  })

  it('ends with the true count and last line of a command that prints 100,000 lines', async () => {
    const { reports, result } = await runWithTail('seq 1 100000')
    expect(result.isError).toBe(false)
    const last = reports.at(-1)!
    expect(last.lines).toBe(100000)
    expect(last.tail.split('\n').at(-1)).toBe('100000')
    // The pty delivers the ~590 kB in hundreds of chunks; the throttle sends one report per interval
    // (pinned with a fake clock below); the figure is printed, not asserted (it depends on the machine).
    console.log(`seq 1 100000: ${reports.length} live reports`)
  })
})

describe('createLiveTail', () => {
  afterEach(() => vi.useRealTimers())

  it('reports the first chunk at once and then at most once per interval, the pending text on close', () => {
    vi.useFakeTimers()
    const reports: LiveTailReport[] = []
    const tail = createLiveTail((report) => reports.push(report), { intervalMs: 100, maxLines: 3 })
    tail.push('a\n')
    expect(reports).toEqual([{ tail: 'a', lines: 1 }])
    for (let i = 0; i < 1000; i++) tail.push(`n${i}\n`)
    expect(reports).toHaveLength(1)
    vi.advanceTimersByTime(100)
    expect(reports).toHaveLength(2)
    expect(reports[1]).toEqual({ tail: 'n997\nn998\nn999', lines: 1001 })
    tail.push('partial')
    tail.close()
    expect(reports.at(-1)).toEqual({ tail: 'n998\nn999\npartial', lines: 1002 })
    tail.push('after the call returned\n')
    vi.advanceTimersByTime(1000)
    expect(reports).toHaveLength(3)
  })

  it('shows a progress bar as its last redraw and cuts a very long line', () => {
    expect(lastLines('10%\r50%\r100%\ndone\n', 5, 10)).toBe('100%\ndone')
    expect(lastLines(`${'x'.repeat(20)}\n`, 5, 10)).toBe(`${'x'.repeat(10)}…`)
  })
})
