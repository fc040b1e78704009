import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './support/harness'
import {
  commandResults,
  done,
  guardedMode,
  run,
  runTask,
  sandboxedGuardedMode,
  useTemporaryHome
} from './support/attack'

/**
 * What a name means is checked in the shell that runs it. An earlier command the user approved
 * leaves an alias, a function or a hashed path in the long-lived task shell; a later command the
 * rules auto-approve (`git status`, `pytest`) must not run it unasked: it asks, the approval shows
 * what the name resolves to, and the payload's marker never appears.
 */
let harness: Harness | undefined
beforeAll(useTemporaryHome)
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const MARKER = 'planted-marker'

interface Plant {
  what: string
  plant: (marker: string) => string
  then: string
  shows: RegExp
}

const plants: Plant[] = [
  {
    what: 'an alias',
    plant: (m) => `alias git='touch ${m}; git'`,
    then: 'git status',
    shows: /'git' is an alias in the task shell: alias git='touch .*planted-marker; git'/
  },
  {
    what: 'an alias set through BASH_ALIASES',
    plant: (m) => `BASH_ALIASES[git]='touch ${m}; git'`,
    then: 'git status',
    shows: /'git' is an alias in the task shell/
  },
  {
    what: 'a function',
    plant: (m) => `git() { touch ${m}; command git "$@"; }`,
    then: 'git status',
    shows: /'git' is a shell function in the task shell: git \(\) \{ touch .*planted-marker/
  },
  {
    what: 'a hashed path',
    plant: () => 'hash -p /bin/sh pytest',
    then: `pytest -c 'touch ${MARKER}'`,
    shows: /'pytest' is hashed in the task shell to \/bin\/sh/
  }
]

describe('names the task shell resolves to something else ask (real bash task shell)', () => {
  for (const attack of plants) {
    it(`${attack.what}: the later auto-approved '${attack.then.split(' ')[0]}' asks, shows what it resolves to, and does not run`, async () => {
      harness = await createHarness({ modes: [guardedMode], trusted: true, turns: [] })
      const marker = join(harness.workspace, MARKER)
      harness.fake.enqueue(run(attack.plant(marker)), run(attack.then), done)
      const asked = await runTask(harness, 'guarded', (item) => !item.reason.includes('task shell'))
      expect(asked).toHaveLength(2)
      expect(asked[1]).toMatchObject({ tool: 'execute_command', rule: 'shell-name' })
      expect(asked[1].reason).toMatch(attack.shows)
      expect(existsSync(marker)).toBe(false)
      expect(commandResults(harness).at(-1)).toContain('[REFUSED by the user]')
    }, 60_000)
  }

  it('a command whose names are the programs runs unasked, and an approved one after a planted alias runs as written', async () => {
    harness = await createHarness({ modes: [guardedMode], trusted: true, turns: [] })
    const marker = join(harness.workspace, MARKER)
    harness.fake.enqueue(run('git status'), run(`alias git='touch ${marker}; git'`), run('git status'), done)
    const asked = await runTask(harness, 'guarded', () => true)
    // Only the alias itself and the git status after it asked; the first git status ran at once.
    expect(asked.map((item) => item.rule)).toEqual(['always-ask', 'shell-name'])
    // Approved knowing what git means there: it ran, as written.
    expect(existsSync(marker)).toBe(true)
  }, 60_000)

  it('in a sandboxed mode (the sandbox loads the task shell’s aliases): the same check holds', async () => {
    harness = await createHarness({ modes: [sandboxedGuardedMode], turns: [] })
    const marker = join(harness.workspace, MARKER)
    // Planted outside the sandbox (approved), so it stays in the task shell the sandbox copies from.
    harness.fake.enqueue(run(`alias git='touch ${marker}; git'`, { outside_sandbox: true }), run('git status'), done)
    const asked = await runTask(harness, 'guarded-box', (item) => !item.reason.includes('task shell'))
    expect(asked.map((item) => item.rule)).toEqual(['outside-sandbox-requested', 'shell-name'])
    expect(existsSync(marker)).toBe(false)
  }, 60_000)
})
