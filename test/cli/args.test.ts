import { describe, expect, it } from 'vitest'
import { parseArgs, UsageError } from '../../src/cli/args'

describe('modus command line', () => {
  it('parses a run with a provider chosen on the command line', () => {
    expect(
      parseArgs(
        [
          'run',
          '--workspace',
          'proj',
          '--mode',
          'debug',
          '--provider',
          'openai-compatible',
          '--model',
          'llama3',
          '--base-url=http://127.0.0.1:11434/v1',
          '--json',
          'fix',
          'it'
        ],
        '/home'
      )
    ).toEqual({
      command: 'run',
      workspace: 'proj',
      mode: 'debug',
      task: 'fix it',
      provider: 'openai-compatible',
      model: 'llama3',
      baseUrl: 'http://127.0.0.1:11434/v1',
      json: true,
      nonInteractive: false,
      trust: false
    })
  })

  it('defaults: code mode; prompt uses the current folder', () => {
    expect(parseArgs(['run', '--workspace', '.', 'task'], '/x')).toMatchObject({ mode: 'code', provider: undefined })
    expect(parseArgs(['prompt'], '/x')).toEqual({
      command: 'prompt',
      mode: 'code',
      workspace: '/x',
      json: false,
      model: undefined,
      trust: false
    })
    expect(parseArgs([], '/x')).toEqual({ command: 'help' })
  })

  it.each([
    [['run', 'task'], '--workspace'],
    [['run', '--workspace', '.'], 'task text'],
    [['run', '--workspace', '.', '--provider', 'bedrock', 't'], '--provider must be one of'],
    [['run', '--workspace', '.', '--provider', 'openai-compatible', 't'], 'needs --base-url'],
    [['run', '--workspace', '.', '--model', 'x', 't'], 'need --provider'],
    [['run', '--workspace'], 'needs a value'],
    [['run', '--workspace', '.', '--frobnicate', 't'], 'Unknown option --frobnicate'],
    [['prompt', 'extra'], 'takes no task text'],
    [['deploy'], 'Unknown command']
  ])('%j is refused with a message naming the problem', (argv, message) => {
    expect(() => parseArgs(argv, '/x')).toThrow(UsageError)
    expect(() => parseArgs(argv, '/x')).toThrow(message)
  })
})
