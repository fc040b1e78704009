import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSessionPerTest, runCliOnTerminal as onTerminal } from '../support/cli-terminal'
import { runCli } from '../support/run-cli'
import { git, makeRepo, userGitState } from '../core/worktrees/git-repo'

const session = cliSessionPerTest('cli worktree')
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

describe('modus run --worktree / modus worktrees', { timeout: 240_000 }, () => {
  it('runs a task in a new worktree, says where and on which branch, lists it, and discards it on --yes', async () => {
    const { fake, env } = await session([
      { toolCalls: [{ name: 'write_to_file', input: { path: 'a.txt', content: 'changed in the worktree\n' } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }
    ])
    const repo = await makeRepo({ 'a.txt': 'original\n' })
    const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const before = userGitState(repo)

    const run = await onTerminal(
      ['run', '--worktree', 'login-fix', '--workspace', repo, ...provider, 'edit a.txt'],
      env,
      [['[y]es', 'y']]
    )
    expect(run.code).toBe(0)
    const path = join(env.MODUS_DATA_DIR, 'worktrees')
    expect(run.output).toContain(`isolated task in ${path}`)
    expect(run.output).toContain('branch modus/login-fix')
    const worktree = /isolated task in (\S+)/.exec(run.output)![1]
    expect(readFileSync(join(worktree, 'a.txt'), 'utf8')).toBe('changed in the worktree\n')
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('original\n')
    expect(userGitState(repo)).toEqual(before)

    const listed = await runCli(['worktrees', '--workspace', repo], { env })
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/login-fix\s+done\s+modus\/login-fix\s+1 files/)

    const refused = await runCli(['worktrees', 'discard', 'login-fix', '--workspace', repo], { env })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('add --yes')
    expect(existsSync(worktree)).toBe(true)

    const discarded = await runCli(['worktrees', 'discard', 'login-fix', '--yes', '--workspace', repo], { env })
    expect(discarded.code).toBe(0)
    expect(existsSync(worktree)).toBe(false)
    expect(git(repo, 'branch', '--list', 'modus/login-fix').trim()).toBe('')
    expect(userGitState(repo)).toEqual(before)
  })

  it('expands a slash command as the normal start does', async () => {
    const { fake, env } = await session([{ toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }])
    const repo = await makeRepo({
      'a.txt': 'original\n',
      '.modus/commands/review.md': 'Review $ARGUMENTS carefully.\n'
    })
    const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const run = await onTerminal(['run', '--worktree', '--workspace', repo, ...provider, '/review a.txt'], env)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain('branch modus/')
    const sent = JSON.stringify(fake.requests[0].body)
    expect(sent).toContain('Review a.txt carefully.')
  })

  it('sends its --image files with the task text in the first request, as the normal start does', async () => {
    const { fake, env } = await session([{ toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }])
    const repo = await makeRepo({ 'a.txt': 'original\n' })
    const shot = join(mkdtempSync(join(tmpdir(), 'modus-wt-shots-')), 'shot.png')
    writeFileSync(shot, Buffer.from(PNG, 'base64'))
    const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
    const before = userGitState(repo)
    const run = await onTerminal(
      ['run', '--worktree', '--workspace', repo, ...provider, '--image', shot, 'what is this?'],
      env
    )
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain('branch modus/')
    const messages = fake.requests[0].body.messages as Array<{ role: string }>
    const sent = JSON.stringify(messages.filter((m) => m.role === 'user'))
    expect(sent).toContain('what is this?')
    expect(sent.split(`"media_type":"image/png","data":"${PNG}"`).length - 1).toBe(1)
    expect(userGitState(repo)).toEqual(before)
  })
})
