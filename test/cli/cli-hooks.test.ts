import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeProvider, toolResultsIn, type FakeProvider, type FakeTurn } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

/**
 * Hooks through `modus run`, as a user sets them up: real sh and node scripts in a hooks file, a
 * model (the fake provider) calling tools, and what reaches the model and the approval queue.
 */
let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

const done: FakeTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
const call = (name: string, input: Record<string, unknown>): FakeTurn => ({ toolCalls: [{ name, input }] })

async function setup(turns: FakeTurn[]) {
  fake = await startFakeProvider({ name: 'cli hooks', turns })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-hooks-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-hooks-ws-')))
  const scripts = realpathSync(mkdtempSync(join(tmpdir(), 'modus-hooks-scripts-')))
  const home = mkdtempSync(join(tmpdir(), 'modus-hooks-home-'))
  writeFileSync(join(workspace, 'notes.txt'), 'hello\n')
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  const script = (name: string, body: string) => {
    const path = join(scripts, name)
    writeFileSync(path, body)
    chmodSync(path, 0o755)
    return path
  }
  return { dataDir, workspace, scripts, provider, script, env: { MODUS_DATA_DIR: dataDir, HOME: home } }
}

/** Every JSON line of a `--json` run. */
const lines = (stdout: string): any[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
const approvals = (stdout: string) => lines(stdout).flatMap((line) => (line.approval ? [line.approval] : []))
const errors = (stdout: string): string[] =>
  lines(stdout).flatMap((line) => (line.event?.type === 'error' ? [line.event.message as string] : []))
const resultOf = (index: number) => toolResultsIn(fake!.requests[index])[0].text

/** A node hook printing this JSON (node is the interpreter the user already has with Modus). */
const printJson = (value: unknown) =>
  `#!/usr/bin/env node\nprocess.stdin.resume();process.stdin.on('end',()=>process.stdout.write(${JSON.stringify(JSON.stringify(value))}))\n`

describe('hooks in modus run', { timeout: 240_000 }, () => {
  it('PreToolUse: deny (exit 2, JSON), ask, allow only what the policy asks, and a hook that fails, hangs or prints no JSON asks', async () => {
    const { dataDir, workspace, provider, script, env } = await setup([
      call('execute_command', { command: 'touch denied-by-exit.txt' }),
      call('execute_command', { command: 'touch allowed.txt' }),
      call('execute_command', { command: 'rm -f notes.txt' }),
      call('execute_command', { command: 'bash -c "touch lifted.txt"' }),
      call('execute_command', { command: 'touch json-denied.txt' }),
      call('read_file', { path: 'notes.txt' }),
      call('list_files', { path: '.' }),
      call('search_files', { path: '.', regex: 'hello' }),
      call('list_code_definition_names', { path: '.' }),
      done
    ])
    // The command hook decides by the command it is sent (stdin: Claude Code's fields and Modus's).
    const seen = join(dataDir, 'seen.jsonl')
    const commands = script(
      'commands.js',
      `#!/usr/bin/env node
let input = ''
process.stdin.on('data', (d) => (input += d))
process.stdin.on('end', () => {
  const event = JSON.parse(input)
  require('fs').appendFileSync(${JSON.stringify(seen)}, JSON.stringify(event) + '\\n')
  const command = event.tool_input.command
  if (command.includes('denied-by-exit')) { process.stderr.write('no touching that file'); process.exit(2) }
  if (command.includes('json-denied')) return console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'json says no' } }))
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'touch is fine' } }))
})
`
    )
    const ask = script('ask.js', printJson({ decision: 'ask', reason: 'reads of notes are reviewed' }))
    const fails = script('fails.sh', '#!/bin/sh\necho "lint crashed" >&2\nexit 1\n')
    const hangs = script('hangs.sh', '#!/bin/sh\nsleep 60\n')
    const notJson = script('not-json.sh', '#!/bin/sh\necho "all good!"\n')
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ policy: { commandRules: { deny: ['rm *'] } } }))
    writeFileSync(
      join(dataDir, 'hooks.yaml'),
      `hooks:
  PreToolUse:
    - name: command-guard
      matcher: Bash
      command: ${commands}
    - name: notes-review
      matcher: read_file
      command: ${ask}
    - name: crashing-lint
      matcher: list_files
      command: ${fails}
    - name: slow-check
      matcher: search_files
      command: ${hangs}
      timeout: 1
    - name: chatty
      matcher: list_code_definition_names
      command: ${notJson}
`
    )
    const run = await runCli(
      ['run', '--workspace', workspace, ...provider, '--json', '--non-interactive', '--trust', 'do things'],
      { env }
    )
    // exit 2: denied with stderr as the reason, naming the hook.
    expect(resultOf(1)).toContain("The global PreToolUse hook 'command-guard' denied it: no touching that file")
    expect(existsSync(join(workspace, 'denied-by-exit.txt'))).toBe(false)
    // allow: the policy would ask (touch is on no allow list): it runs without asking.
    expect(existsSync(join(workspace, 'allowed.txt'))).toBe(true)
    // The policy denies rm: the hook's allow does not lift it (the hook is not even asked).
    expect(resultOf(3)).toContain('rm *')
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(true)
    // An always-ask construct: the hook's allow cannot lift it; it asks (refused, non-interactive).
    expect(existsSync(join(workspace, 'lifted.txt'))).toBe(false)
    const all = approvals(run.stdout)
    expect(all.find((item) => String(item.args?.command).includes('lifted'))?.reason).toContain(
      "PreToolUse hook 'command-guard' allowed it, but a hook cannot lift this ask"
    )
    // JSON deny (Claude Code's hookSpecificOutput).
    expect(resultOf(5)).toContain("hook 'command-guard' denied it: json says no")
    // ask on a read the policy allows: the approval's why names the hook.
    const review = all.find((item) => item.tool === 'read_file')
    expect(review?.rule).toBe('hook:notes-review')
    expect(review?.reason).toContain(
      "The global PreToolUse hook 'notes-review' asks for approval: reads of notes are reviewed"
    )
    // Failed, hung, not JSON: reported, and the call asks.
    for (const [tool, hook, problem] of [
      ['list_files', 'crashing-lint', 'failed with exit code 1: lint crashed'],
      ['search_files', 'slow-check', 'did not finish within 1 s'],
      ['list_code_definition_names', 'chatty', 'printed output that is not JSON: all good!']
    ] as const) {
      expect(all.find((item) => item.tool === tool)?.reason).toContain(`hook '${hook}' ${problem}`)
      expect(errors(run.stdout).some((message) => message.includes(`'${hook}' ${problem}`))).toBe(true)
    }
    // What a hook reads on stdin.
    const first = JSON.parse(readFileSync(seen, 'utf8').split('\n')[0])
    expect(first).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'execute_command',
      cwd: workspace,
      mode: 'code',
      tool_input: { command: 'touch denied-by-exit.txt' }
    })
    expect(typeof first.session_id).toBe('string')
    expect(run.code).toBe(4)
  })

  it('PostToolUse adds a note to the result; UserPromptSubmit adds context; Stop keeps the task going once', async () => {
    const { dataDir, workspace, provider, script, env } = await setup([
      call('read_file', { path: 'notes.txt' }),
      done,
      done
    ])
    const lint = script(
      'lint.js',
      printJson({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint: 0 problems' } })
    )
    const context = script('context.sh', '#!/bin/sh\ncat > /dev/null\necho "Branch: feature/x"\n')
    const stopFlag = join(dataDir, 'stopped-once')
    const stop = script(
      'stop.sh',
      `#!/bin/sh\ncat > /dev/null\nif [ -e ${stopFlag} ]; then exit 0; fi\ntouch ${stopFlag}\necho "run the tests before finishing" >&2\nexit 2\n`
    )
    writeFileSync(
      join(dataDir, 'hooks.yaml'),
      `hooks:\n  PostToolUse:\n    - command: ${lint}\n      matcher: Read\n  UserPromptSubmit:\n    - command: ${context}\n  Stop:\n    - name: tests-first\n      command: ${stop}\n`
    )
    const run = await runCli(['run', '--workspace', workspace, ...provider, '--json', '--non-interactive', 'read it'], {
      env
    })
    expect(JSON.stringify(fake!.requests[0].body.messages)).toContain('Branch: feature/x')
    expect(resultOf(1)).toContain('hello')
    expect(resultOf(1)).toContain("[PostToolUse hook '")
    expect(resultOf(1)).toContain('lint: 0 problems')
    // The first completion was turned back with the hook's reason; the second one ended the task.
    expect(resultOf(2)).toContain(
      "The Stop hook 'tests-first' did not let the task finish: run the tests before finishing"
    )
    expect(fake!.requests).toHaveLength(3)
    expect(run.code).toBe(0)
  })

  it('UserPromptSubmit can block a message: the model is never asked', async () => {
    const { dataDir, workspace, provider, script, env } = await setup([])
    const block = script('block.js', printJson({ decision: 'block', reason: 'no secrets in prompts' }))
    writeFileSync(
      join(dataDir, 'hooks.yaml'),
      `hooks:\n  UserPromptSubmit:\n    - name: secret-scan\n      command: ${block}\n`
    )
    const run = await runCli(
      ['run', '--workspace', workspace, ...provider, '--json', '--non-interactive', 'my key is sk-123'],
      { env }
    )
    expect(errors(run.stdout)).toContain(
      "The global UserPromptSubmit hook 'secret-scan' blocked this message: no secrets in prompts"
    )
    expect(fake!.requests).toHaveLength(0)
  })

  it("a project's hooks run only in a trusted workspace", async () => {
    const { workspace, provider, script, env } = await setup([
      call('read_file', { path: 'notes.txt' }),
      done,
      call('read_file', { path: 'notes.txt' }),
      done
    ])
    const deny = script('deny.sh', '#!/bin/sh\necho "project says no" >&2\nexit 2\n')
    mkdirSync(join(workspace, '.modus'))
    writeFileSync(
      join(workspace, '.modus', 'hooks.yaml'),
      `hooks:\n  PreToolUse:\n    - name: project-guard\n      command: ${deny}\n`
    )
    const untrusted = await runCli(['run', '--workspace', workspace, ...provider, '--non-interactive', 'read'], { env })
    expect(untrusted.code).toBe(0)
    expect(resultOf(1)).toContain('hello')
    const trusted = await runCli(
      ['run', '--workspace', workspace, ...provider, '--non-interactive', '--trust', 'read'],
      { env }
    )
    expect(trusted.code).toBe(0)
    expect(resultOf(3)).toContain("The project PreToolUse hook 'project-guard' denied it: project says no")
  })

  it("modus hooks import: a project's .claude/settings.json hooks become the user's own, then run", async () => {
    const { dataDir, workspace, provider, script, env } = await setup([
      call('execute_command', { command: 'touch x.txt' }),
      done
    ])
    const guard = script('guard.sh', '#!/bin/sh\necho "blocked by claude hook" >&2\nexit 2\n')
    mkdirSync(join(workspace, '.claude'))
    writeFileSync(
      join(workspace, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard, timeout: 5 }] }],
          Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }]
        }
      })
    )
    // Nothing runs before the import: a project's Claude Code file is never applied by itself.
    const listed = await runCli(['hooks', 'list', '--workspace', workspace], { env })
    expect(listed.stdout).toContain('No hooks')
    const imported = await runCli(['hooks', 'import', '--workspace', workspace], { env })
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain('Imported 1 hook')
    expect(imported.stdout).toContain('Notification notify-send hi: Modus has no Notification event')
    expect(readFileSync(join(dataDir, 'hooks.yaml'), 'utf8')).toContain(guard)
    const run = await runCli(['run', '--workspace', workspace, ...provider, '--non-interactive', 'touch'], { env })
    expect(resultOf(1)).toContain('blocked by claude hook')
    expect(existsSync(join(workspace, 'x.txt'))).toBe(false)
    expect(run.code).toBe(0)
  })
})
