import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  promises as fs,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { toolResultsIn } from '../../support/fake-provider'
import { everythingStdio } from '../../support/mcp/servers'
import { createDeferredDisposals } from '../../support/deferred-disposals'
import { createHarness, type Harness } from './support/harness'
import { commandResults, done, guardedMode, run, runTask, useTemporaryHome } from './support/attack'

/**
 * Git runs without the repository's code-running config. A real repository in a workspace nobody
 * trusted names programs in its own `.git/config`; the rules auto-approve the read-only git
 * command the model sends. Each payload writes a marker: it must never appear. Keys Modus turns
 * off on git's command line let the command run (the result shows the exact line run); a key it
 * cannot turn off (a filter driver) makes the command ask, naming the key.
 */
let harness: Harness | undefined
let hub: McpHub | undefined
const hubDisposals = createDeferredDisposals()
beforeAll(useTemporaryHome)
afterEach(async () => {
  await harness?.close()
  if (hub) hubDisposals.add(hub.dispose())
  harness = undefined
  hub = undefined
})
afterAll(() => hubDisposals.settle())

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@example.com'
}
const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' })

/** A repository with a text file under a diff driver, a data file under a filter, and a signed-looking commit on top. */
function makeRepository(dir: string): void {
  git(dir, 'init', '-q')
  writeFileSync(join(dir, 'a.txt'), 'one\n')
  writeFileSync(join(dir, 'b.dat'), 'data\n')
  writeFileSync(join(dir, '.gitattributes'), '*.txt diff=evil\n*.dat filter=evil\n')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-qm', 'first')
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n')
  git(dir, 'commit', '-qam', 'second')
  const tree = git(dir, 'rev-parse', 'HEAD^{tree}').trim()
  const parent = git(dir, 'rev-parse', 'HEAD').trim()
  const signed = `tree ${tree}\nparent ${parent}\nauthor a <a@example.com> 1 +0000\ncommitter a <a@example.com> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n`
  const commit = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    cwd: dir,
    input: signed,
    encoding: 'utf8'
  }).trim()
  git(dir, 'update-ref', 'HEAD', commit)
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n')
  // Same content, new time: git status must read b.dat again, through its clean filter.
  utimesSync(join(dir, 'b.dat'), new Date(), new Date(Date.now() + 5_000))
}

interface Attack {
  what: string
  command: string
  config: (marker: string, dir: string) => Record<string, string>
  /** The key a command asks about when Modus cannot turn it off; absent: it runs with the key off. */
  asks?: string
}

const attacks: Attack[] = [
  {
    what: "core.fsmonitor on 'git status'",
    command: 'git status',
    config: (m) => ({ 'core.fsmonitor': `touch ${m}; false` })
  },
  {
    what: "diff.external on 'git diff'",
    command: 'git diff',
    config: (m) => ({ 'diff.external': `sh -c 'touch ${m}' --` })
  },
  {
    what: "a textconv driver on 'git show'",
    command: 'git show HEAD~1',
    config: (m) => ({ 'diff.evil.textconv': `touch ${m}; cat` })
  },
  {
    what: "a textconv driver on 'git blame'",
    command: 'git blame a.txt',
    config: (m) => ({ 'diff.evil.textconv': `touch ${m}; cat` })
  },
  {
    what: "log.showSignature with gpg.program on 'git log'",
    command: 'git log -1',
    config: (m, dir) => {
      writeFileSync(join(dir, 'verify.sh'), `#!/bin/sh\ntouch ${m}\n`)
      chmodSync(join(dir, 'verify.sh'), 0o755)
      return { 'log.showSignature': 'true', 'gpg.program': join(dir, 'verify.sh') }
    }
  },
  {
    what: "a clean filter on 'git status'",
    command: 'git status',
    config: (m) => ({ 'filter.evil.clean': `touch ${m}; cat` }),
    asks: 'filter.evil.clean'
  }
]

function armRepository(dir: string, attack: Attack, marker: string): void {
  makeRepository(dir)
  for (const [key, value] of Object.entries(attack.config(marker, dir))) git(dir, 'config', key, value)
}

/** The attack is real on this machine's git: the same command, run as written, writes the marker. */
function provesReal(attack: Attack): void {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-git-proof-')))
  const marker = join(dir, 'proof-marker')
  armRepository(dir, attack, marker)
  execFileSync('sh', ['-c', `${attack.command} >/dev/null 2>&1 || true`], {
    cwd: dir,
    env: { ...GIT_ENV, GIT_PAGER: 'cat' }
  })
  expect(existsSync(marker), `${attack.what}: the attack writes its marker with plain git`).toBe(true)
  rmSync(dir, { recursive: true, force: true })
}

describe("auto-approved git runs without the repository's code-running config (real git, real task shell)", () => {
  for (const attack of attacks) {
    it(`${attack.what}: the marker never appears${attack.asks ? `; it asks naming ${attack.asks}` : '; the result shows the line run'}`, async () => {
      provesReal(attack)
      harness = await createHarness({ modes: [guardedMode], turns: [] })
      const marker = join(harness.workspace, 'git-marker')
      armRepository(harness.workspace, attack, marker)
      harness.fake.enqueue(run(attack.command), done)
      const asked = await runTask(harness, 'guarded', () => false)
      expect(existsSync(marker)).toBe(false)
      if (attack.asks) {
        expect(asked.map((item) => item.rule)).toEqual(['repository-git-config'])
        expect(asked[0].reason).toContain(`sets '${attack.asks}'`)
        expect(asked[0].reason).toContain('until the workspace is trusted')
        expect(asked[0].suggestedRule).toBeUndefined()
      } else {
        expect(asked).toEqual([])
        const result = commandResults(harness)[0]
        expect(result).toMatch(/^Command (exited with code 0|failed with exit code \d+) in /)
        const sub = attack.command.split(' ')[1]
        expect(result).toContain(`Ran as: git --no-pager -c core.fsmonitor=false -c core.hooksPath=/dev/null`)
        expect(result).toContain(`-c protocol.ext.allow=never ${sub}`)
      }
    }, 60_000)
  }

  it('copied into a nested folder and reached with cd, the filter still asks', async () => {
    harness = await createHarness({ modes: [guardedMode], turns: [] })
    const marker = join(harness.workspace, 'git-marker')
    const inner = join(harness.workspace, 'vendor', 'lib')
    await fs.mkdir(inner, { recursive: true })
    armRepository(inner, attacks.at(-1)!, marker)
    cpSync(join(inner, '.gitattributes'), join(harness.workspace, '.gitattributes'))
    harness.fake.enqueue(run('cd vendor/lib && git status'), done)
    const asked = await runTask(harness, 'guarded', () => false)
    expect(asked.map((item) => item.rule)).toEqual(['repository-git-config'])
    expect(existsSync(marker)).toBe(false)
  }, 60_000)

  it('a chain: an MCP tool’s result carries the command, the model sends it, and it does not run the repository’s fsmonitor', async () => {
    const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'modus-data-')))
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-ws-')))
    const marker = join(workspace, 'git-marker')
    armRepository(workspace, attacks[0], marker)
    await fs.writeFile(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { everything: everythingStdio() } }))
    hub = createMcpHub({
      dataDir,
      env: process.env,
      isTrusted: () => false,
      backoff: { baseMs: 50, maxMs: 100, maxRestarts: 1 }
    })
    await hub.open(workspace)
    await hub.settled()
    harness = await createHarness({ modes: [guardedMode], dataDir, workspace, mcp: hub, turns: [] })
    harness.fake.enqueue(
      { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'git status' } }] },
      // The model does what the tool result says.
      (request) => run(toolResultsIn(request)[0].text.replace(/^Echo: /, '')) as never,
      done
    )
    const asked = await runTask(harness, 'guarded', () => false)
    expect(asked).toEqual([])
    const results = commandResults(harness)
    expect(results[1]).toContain('Ran as: git --no-pager -c core.fsmonitor=false')
    expect(existsSync(marker)).toBe(false)
  }, 60_000)
})
