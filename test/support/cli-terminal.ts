import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as pty from 'node-pty'
import { afterEach, expect } from 'vitest'
import { startFakeProvider, type FakeProvider, type FakeTurn } from './fake-provider'

const root = resolve(__dirname, '../..')
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs')
const entry = join(root, 'src/cli/main.ts')

/**
 * Runs the CLI source on a real terminal (node-pty), as a user types `modus …`, and answers each
 * prompt (in order) once it appears in the output.
 */
export function runCliOnTerminal(
  args: string[],
  env: Record<string, string>,
  answers: Array<[prompt: string, answer: string]> = []
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const term = pty.spawn(process.execPath, [jiti, entry, ...args], {
      cols: 200,
      rows: 50,
      cwd: root,
      env: { ...process.env, ...env }
    })
    let output = ''
    let next = 0
    let answeredAt = 0
    term.onData((data) => {
      output += data
      const pending = answers[next]
      if (pending && output.indexOf(pending[0], answeredAt) !== -1) {
        answeredAt = output.lastIndexOf(pending[0]) + pending[0].length
        next++
        term.write(`${pending[1]}\r`)
      }
    })
    term.onExit(({ exitCode }) => done({ code: exitCode, output }))
  })
}

export interface CliSession {
  fake: FakeProvider
  /** An empty temp folder (its real path), for `--workspace`. */
  workspace: string
  /** A temp data dir and HOME, and the key the fake provider takes. */
  env: Record<string, string>
}

/**
 * For a test file whose tests each run `modus` against the fake provider: call once at the top;
 * each test starts its session with the turns the model will answer. After each test the provider
 * is closed, and a request it could not answer fails the test.
 */
export function cliSessionPerTest(name: string): (turns: FakeTurn[]) => Promise<CliSession> {
  let fake: FakeProvider | undefined
  afterEach(async () => {
    expect(fake?.failures ?? []).toEqual([])
    await fake?.close()
    fake = undefined
  })
  const temp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  return async (turns) => {
    fake = await startFakeProvider({ name, turns })
    return {
      fake,
      workspace: temp('modus-cli-ws-'),
      env: { MODUS_DATA_DIR: temp('modus-cli-data-'), HOME: temp('modus-cli-home-'), ANTHROPIC_API_KEY: 'test-key' }
    }
  }
}
