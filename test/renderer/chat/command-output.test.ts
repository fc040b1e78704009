import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../src/shared/agent/events'
import { emptyTaskView, reduceTaskEvent, type ToolItem } from '../../../src/renderer/src/common/chat/task-view'
import { commandOutputOf, outputExtent, quotedOutput } from '../../../src/renderer/src/features/chat/command-output'

const at = 1000
const call: AgentEvent[] = [
  { type: 'assistant-start', at, messageId: 'm1', model: 'x' },
  { type: 'tool-call', at, messageId: 'm1', callId: 'c1', name: 'execute_command', args: { command: 'seq 1 40' } },
  { type: 'tool-started', at, callId: 'c1' }
]
const toolOf = (events: AgentEvent[]) =>
  events.reduce(reduceTaskEvent, emptyTaskView()).items.find((item) => item.kind === 'tool') as ToolItem
const resultText = (output: string) =>
  `Command exited with code 0 in /w.\n\nOutput (${output.length} bytes):\n${output}\n\nNote: the shell restarted.`

describe('a command card’s output', () => {
  it('shows the newest tail while the command runs (each event replaces the last), then folds it', () => {
    const running = toolOf([
      ...call,
      { type: 'tool-output', callId: 'c1', tail: '1\n2', lines: 2 },
      { type: 'tool-output', callId: 'c1', tail: '29\n30', lines: 30 }
    ])
    expect(commandOutputOf(running)).toEqual({ tail: '29\n30', lines: 30, live: true })
    expect(outputExtent(commandOutputOf(running)!)).toBe('last 2 of 30 lines')

    const ended = toolOf([
      ...call,
      { type: 'tool-output', callId: 'c1', tail: '39\n40', lines: 40 },
      { type: 'tool-result', at, callId: 'c1', isError: false, text: resultText('1\n…\n40'), exitCode: 0 },
      // A late event (the command went on in the background) does not change a finished card.
      { type: 'tool-output', callId: 'c1', tail: 'later', lines: 41 }
    ])
    expect(commandOutputOf(ended)).toEqual({ tail: '39\n40', lines: 40, live: false })
  })

  it('after a reload (no live events) shows the end of the output the result quotes, without its notes', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `row ${i + 1}`).join('\n')
    const reloaded = toolOf([
      ...call,
      { type: 'tool-result', at, callId: 'c1', isError: false, text: resultText(`${lines}\n`), exitCode: 0 }
    ])
    const output = commandOutputOf(reloaded)!
    expect(output.live).toBe(false)
    expect(output.lines).toBe(20)
    expect(output.tail.split('\n')).toEqual(Array.from({ length: 12 }, (_, i) => `row ${i + 9}`))
  })

  it('has nothing to show for a command that printed nothing, or for other tools', () => {
    expect(quotedOutput('Command exited with code 0 in /w.\n\nOutput: (none)')).toBeNull()
    expect(commandOutputOf({ ...toolOf(call), name: 'read_file' })).toBeNull()
    expect(commandOutputOf(toolOf(call))).toBeNull()
  })
})
