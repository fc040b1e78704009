import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { startFakeProvider, toolResultsIn, type FakeProvider, type FakeTurn } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

/**
 * Issue #25, row "path arguments", as an attacker would run it: through `modus run`, the real agent
 * and the real task shell, in a trusted workspace and a mode without a sandbox, so the policy alone
 * must stop it. Non-interactive: whatever asks is refused, and nothing it would have read reaches the
 * model.
 */
let fake: FakeProvider | undefined
const cleanups: string[] = []
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
  for (const dir of cleanups.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A global mode as a user might write it: `git diff *` and `pytest *` auto-approved, no sandbox. */
const RUNNER = {
  slug: 'runner',
  name: 'Runner',
  roleDefinition: 'You run the project’s checks.',
  groups: ['read', 'command'],
  autoApprove: { read: true, command: true },
  commandRules: { allow: ['git diff *', 'pytest *'] }
}

/** Where pytest is: the task shell starts from the temporary HOME, whose profile puts it on PATH. */
const pytestDir = (() => {
  try {
    return dirname(execFileSync('sh', ['-c', 'command -v pytest'], { encoding: 'utf8' }).trim())
  } catch {
    return undefined
  }
})()

async function setup(turnsOf: (base: string) => FakeTurn[]) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'modus-attack-')))
  cleanups.push(base)
  fake = await startFakeProvider({ name: 'path-arguments-attack', turns: turnsOf(base) })
  const dataDir = join(base, 'data')
  const home = join(base, 'home')
  const workspace = join(base, 'ws')
  for (const dir of [dataDir, home, workspace]) mkdirSync(dir)
  for (const profile of ['.profile', '.bashrc'])
    writeFileSync(join(home, profile), pytestDir ? `export PATH="${pytestDir}:$PATH"\n` : '')
  writeFileSync(join(dataDir, 'modes.yaml'), stringify({ customModes: [RUNNER] }))
  execFileSync('git', ['init', '-q', workspace])
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  const args = (task: string) => [
    'run',
    '--workspace',
    workspace,
    '--mode',
    'runner',
    ...provider,
    '--trust',
    '--non-interactive',
    task
  ]
  return { base, workspace, args, env: { MODUS_DATA_DIR: dataDir, HOME: home } }
}

const commandCall = (command: string): FakeTurn => ({ toolCalls: [{ name: 'execute_command', input: { command } }] })
const done: FakeTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }
const sentToModel = () => (fake?.requests ?? []).map((request) => request.rawBody).join('\n')

describe(
  'path arguments cannot reach outside the workspace unasked (modus run, policy alone)',
  { timeout: 120_000 },
  () => {
    it('git diff --no-index of a file outside the workspace, or of an ignored one, does not send it to the model', async () => {
      const { base, workspace, args, env } = await setup((base) => [
        commandCall(`git diff --no-index /dev/null ${join(base, 'outside', 'secret.txt')}`),
        commandCall('git diff --no-index /dev/null $PWD/../outside/secret.txt'),
        commandCall('git diff --no-index /dev/null secrets/key.pem'),
        // The control: a file inside the workspace is shown, so the pipeline does carry what it reads.
        commandCall('git diff --no-index /dev/null notes.txt'),
        done
      ])
      mkdirSync(join(base, 'outside'))
      writeFileSync(join(base, 'outside', 'secret.txt'), 'OUTSIDE-SECRET-7f3a91\n')
      mkdirSync(join(workspace, 'secrets'))
      writeFileSync(join(workspace, 'secrets', 'key.pem'), 'IGNORED-KEY-c0ffee\n')
      writeFileSync(join(workspace, '.modusignore'), 'secrets/\n')
      writeFileSync(join(workspace, 'notes.txt'), 'INSIDE-NOTE-1234\n')
      const run = await runCli(args('compare the files'), { env })
      expect(fake!.requests).toHaveLength(5)
      const results = fake!.requests.slice(1, 4).map((request) => toolResultsIn(request)[0].text)
      for (const result of results) expect(result).toMatch(/refused|denied|not approved|ignore/i)
      expect(sentToModel()).not.toContain('OUTSIDE-SECRET-7f3a91')
      expect(sentToModel()).not.toContain('IGNORED-KEY-c0ffee')
      expect(toolResultsIn(fake!.requests[4])[0].text).toContain('INSIDE-NOTE-1234')
      expect(run.stderr + run.stdout).not.toContain('OUTSIDE-SECRET-7f3a91')
    })

    it.runIf(pytestDir)('pytest --basetemp=$PWD/../victim does not wipe the folder next to the workspace', async () => {
      const { base, workspace, args, env } = await setup(() => [
        commandCall('pytest -q -p no:cacheprovider --basetemp=$PWD/../victim'),
        commandCall('pytest -q -p no:cacheprovider --basetemp ~+/../victim'),
        commandCall('PYTEST_ADDOPTS="--basetemp=$HOME/../victim" pytest -q -p no:cacheprovider'),
        // The control: inside the workspace the same run is auto-approved and really runs.
        commandCall('pytest -q -p no:cacheprovider --basetemp=$PWD/.run-tmp'),
        done
      ])
      mkdirSync(join(base, 'victim'))
      writeFileSync(join(base, 'victim', 'precious.txt'), 'keep me\n')
      writeFileSync(
        join(workspace, 'test_uses_tmp.py'),
        'def test_tmp(tmp_path):\n    (tmp_path / "x").write_text("x")\n'
      )
      await runCli(args('run the tests'), { env })
      expect(fake!.requests).toHaveLength(5)
      expect(readFileSync(join(base, 'victim', 'precious.txt'), 'utf8')).toBe('keep me\n')
      for (const request of fake!.requests.slice(1, 4))
        expect(toolResultsIn(request)[0].text).toMatch(/refused|not approved/i)
      expect(toolResultsIn(fake!.requests[4])[0].text).toContain('1 passed')
      expect(existsSync(join(workspace, '.run-tmp'))).toBe(true)
    })
  }
)
