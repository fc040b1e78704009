import { existsSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openIndexMeta } from '../../src/main/core/code-index/index-meta'
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider'
import { runCli } from '../support/run-cli'

let fake: FakeProvider | undefined
afterEach(async () => {
  expect(fake?.failures ?? []).toEqual([])
  await fake?.close()
  fake = undefined
})

/** The workspace's index bookkeeping in the data dir, once the index has been opened there. */
async function indexMeta(dataDir: string, workspace: string): Promise<{ complete: boolean; files: string[] } | null> {
  const root = join(dataDir, 'code-index')
  if (!existsSync(root)) return null
  for (const dir of readdirSync(root)) {
    const book = await openIndexMeta(join(root, dir), workspace)
    if (!book.fresh) return { complete: book.meta.header.complete, files: book.meta.files.allPaths() }
  }
  return null
}

async function setup(turns: FakeTurn[], settings?: object) {
  fake = await startFakeProvider({ name: 'cli index', turns })
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-cli-data-'))
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-cli-ws-')))
  writeFileSync(
    join(workspace, 'billing.ts'),
    'export function computeInvoiceTotal(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0)\n}\n'
  )
  writeFileSync(join(workspace, 'notes.md'), '# Notes\n')
  if (settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings))
  const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
  return { dataDir, workspace, provider, env: { MODUS_DATA_DIR: dataDir } }
}

const until = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 600 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100))
  if (!(await check())) throw new Error(`timed out waiting for ${what}`)
}

describe('modus run and the code index', () => {
  it(
    'starts indexing the workspace in the background once the first answer arrives, with no codebase_search call',
    { timeout: 120_000 },
    async () => {
      let indexAtFirstRequest: unknown = 'unset'
      let dataDir = ''
      let workspace = ''
      const first: FakeTurn = async () => {
        indexAtFirstRequest = await indexMeta(dataDir, workspace)
        return { toolCalls: [{ name: 'list_files', input: { path: '.' } }] }
      }
      // The model's second answer is slow; meanwhile the index is built beside it.
      const second: FakeTurn = async () => {
        await until(async () => (await indexMeta(dataDir, workspace))?.complete === true, 'the index build')
        return { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }
      }
      const env = await setup([first, second])
      dataDir = env.dataDir
      workspace = env.workspace
      const run = await runCli(
        ['run', '--workspace', env.workspace, '--mode', 'code', ...env.provider, '--non-interactive', 'go'],
        { env: env.env }
      )
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
      // The first request was not held back for the index: none existed when it arrived.
      expect(indexAtFirstRequest).toBeNull()
      expect((await indexMeta(dataDir, workspace))!.files.sort()).toEqual(['billing.ts', 'notes.md'])
    }
  )

  it(
    'a kept index built by one run answers codebase_search in the next one from disk',
    { timeout: 120_000 },
    async () => {
      let dataDir = ''
      let workspace = ''
      const build: FakeTurn = async () => {
        await until(async () => (await indexMeta(dataDir, workspace))?.complete === true, 'the index build')
        return { toolCalls: [{ name: 'attempt_completion', input: { result: 'Built.' } }] }
      }
      const first = await setup([{ toolCalls: [{ name: 'list_files', input: { path: '.' } }] }, build])
      dataDir = first.dataDir
      workspace = first.workspace
      expect(
        (
          await runCli(['run', '--workspace', first.workspace, ...first.provider, '--non-interactive', 'go'], {
            env: first.env
          })
        ).code
      ).toBe(0)
      await fake!.close()
      fake = await startFakeProvider({
        name: 'cli index 2',
        turns: [
          { toolCalls: [{ name: 'codebase_search', input: { query: 'invoice total' } }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'Found.' } }] }
        ]
      })
      const provider = ['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--base-url', fake.anthropicBaseUrl]
      const second = await runCli(
        ['run', '--workspace', first.workspace, ...provider, '--non-interactive', 'find it'],
        { env: first.env }
      )
      expect({ code: second.code, stderr: second.stderr }).toMatchObject({ code: 0 })
      const result = JSON.stringify(fake.requests[1].body.messages)
      expect(result).toContain('billing.ts')
      expect(result).not.toContain('not ready')
    }
  )

  it(
    'with codeIndex.autoStart off, or a workspace past autoStartMaxFiles, no index is built',
    { timeout: 120_000 },
    async () => {
      for (const codeIndex of [{ autoStart: false }, { autoStart: true, autoStartMaxFiles: 1 }]) {
        // A second request after the first answer: the index would have started by then.
        const env = await setup(
          [
            { toolCalls: [{ name: 'list_files', input: { path: '.' } }] },
            { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] }
          ],
          { codeIndex }
        )
        const run = await runCli(['run', '--workspace', env.workspace, ...env.provider, '--non-interactive', 'go'], {
          env: env.env
        })
        expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
        expect(await indexMeta(env.dataDir, env.workspace)).toBeNull()
        await fake!.close()
        fake = undefined
      }
    }
  )
})
