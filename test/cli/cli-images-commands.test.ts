import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSessionPerTest, runCliOnTerminal as onTerminal } from '../support/cli-terminal'

/** `modus run --image FILE` and `modus run "/command args"` on a real terminal (node-pty). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
const setup = cliSessionPerTest('cli images and commands')

const userContent = (body: Record<string, unknown>) =>
  JSON.stringify((body.messages as Array<{ role: string }>).filter((m) => m.role === 'user').at(-1))

describe('modus run with images and slash commands', { timeout: 240_000 }, () => {
  it('sends each --image to an image model (Anthropic wire) and refuses them for a model without images', async () => {
    const { fake, workspace, env } = await setup([done])
    const shot = join(workspace, 'shot.png')
    writeFileSync(shot, Buffer.from(PNG, 'base64'))
    const anthropic = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const run = await onTerminal(
      ['run', '--workspace', workspace, ...anthropic, '--image', shot, '--image', shot, 'what is this?'],
      env
    )
    expect(run.code, run.output).toBe(0)
    const sent = userContent(fake.requests[0].body)
    expect(sent.split(`"media_type":"image/png","data":"${PNG}"`).length - 1).toBe(2)

    const local = ['--provider', 'openai-compatible', '--model', 'qwen3-coder', '--base-url', fake.openaiBaseUrl]
    const refused = await onTerminal(['run', '--workspace', workspace, ...local, '--image', shot, 'what is this?'], env)
    expect(refused.code).not.toBe(0)
    expect(refused.output).toContain('qwen3-coder does not accept images')
    expect(fake.requests).toHaveLength(1)

    writeFileSync(join(workspace, 'notes.txt'), 'not an image')
    const wrong = await onTerminal(['run', '--workspace', workspace, ...anthropic, '--image', 'notes.txt', 'x'], {
      ...env
    })
    expect(wrong.output).toMatch(/not a PNG, JPEG, GIF or WebP image|no such file/)
  })

  it('expands a project prompt command with its arguments; other text starting with / goes as written', async () => {
    const { fake, workspace, env } = await setup([done, done])
    mkdirSync(join(workspace, '.modus', 'commands'), { recursive: true })
    writeFileSync(
      join(workspace, '.modus', 'commands', 'review.md'),
      '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS carefully.\n'
    )
    const anthropic = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const run = await onTerminal(['run', '--workspace', workspace, ...anthropic, '/review src/a.ts'], env)
    expect(run.code, run.output).toBe(0)
    expect(userContent(fake.requests[0].body)).toContain('Review src/a.ts carefully.')
    const plain = await onTerminal(['run', '--workspace', workspace, ...anthropic, '/usr/bin/env is missing'], env)
    expect(plain.code, plain.output).toBe(0)
    expect(userContent(fake.requests[1].body)).toContain('/usr/bin/env is missing')
  })

  it('runs /cost, /checkpoint and /condense on a task with modus resume, printing what each did; /condense in modus run says where it works', async () => {
    const read = (path: string) => ({ toolCalls: [{ name: 'read_file', input: { path } }] })
    const { fake, workspace, env } = await setup([
      read('a.txt'),
      read('a.txt'),
      read('a.txt'),
      done,
      { text: 'SUMMARY.' }
    ])
    writeFileSync(join(workspace, 'a.txt'), 'alpha\n')
    const anthropic = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const run = await onTerminal(['run', '--workspace', workspace, ...anthropic, 'read a three times'], env)
    expect(run.code, run.output).toBe(0)

    const cost = await onTerminal(['resume', '--workspace', workspace, ...anthropic, '/cost'], env)
    expect(cost.code, cost.output).toBe(0)
    expect(cost.output).toMatch(/claude-sonnet-4-6: 4 requests, [\d,]+ in \/ [\d,]+ out, \$\d/)
    const checkpoint = await onTerminal(['resume', '--workspace', workspace, ...anthropic, '/checkpoint', 'mine'], env)
    expect(checkpoint.code, checkpoint.output).toBe(0)
    expect(checkpoint.output).toMatch(/Checkpoint saved — no files changed since the last \(\w{8}: mine\)/)
    const condense = await onTerminal(['resume', '--workspace', workspace, ...anthropic, '/condense'], env)
    expect(condense.code, condense.output).toBe(0)
    expect(condense.output).toMatch(/Condensed 5 messages into a summary — [\d.k]+ → [\d.k]+ tokens/)
    // Only the summary request went out for the three commands.
    expect(fake.requests.filter((r) => r.protocol !== 'unknown')).toHaveLength(5)

    const misplaced = await onTerminal(['run', '--workspace', workspace, ...anthropic, '/condense'], env)
    expect(misplaced.code).toBe(2)
    expect(misplaced.output).toContain('modus resume [TASK] /condense')
  })
})
