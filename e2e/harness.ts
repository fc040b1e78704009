import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { startServeProcess } from '../test/support/serve-process'
import { startFakeProvider, type FakeProvider } from '../test/support/fake-provider'

export interface ModusHarness {
  /** The URL the web host printed, the token in its fragment. */
  url: string
  origin: string
  token: string
  fake: FakeProvider
  workspace: string
  dataDir: string
}

/** A web host on its own temp root: the sample workspace and an empty data dir beside it. */
interface StartedHost {
  root: string
  workspace: string
  dataDir: string
  child: ChildProcess
  url: string
  /** What the host printed so far (and how it exited). */
  output: () => string
}

async function startHost(): Promise<StartedHost> {
  const root = mkdtempSync(join(tmpdir(), 'modus-e2e-'))
  const workspace = join(root, 'sample-project')
  mkdirSync(join(workspace, 'src'), { recursive: true })
  writeFileSync(join(workspace, 'README.md'), '# Sample project\n')
  writeFileSync(join(workspace, 'src', 'greet.ts'), 'export const greet = (name: string) => `Hello ${name}`\n')
  const dataDir = join(root, 'data')
  try {
    const { child, url, output } = await startServeProcess(dataDir)
    return { root, workspace, dataDir, child, url, output }
  } catch (error) {
    rmSync(root, { recursive: true, force: true })
    throw error
  }
}

async function stopHost(host: StartedHost): Promise<void> {
  // Wait for the host to exit: it may still be appending task logs that rmSync would race.
  const exited = new Promise((resolveExit) =>
    host.child.exitCode !== null ? resolveExit(null) : host.child.once('exit', resolveExit)
  )
  host.child.kill('SIGTERM')
  await exited
  rmSync(host.root, { recursive: true, force: true })
}

/**
 * Each test gets a fresh host, but the next one starts while the current test ends (its context
 * closing, the next page opening) instead of after: a second of each test that was only waiting.
 */
class HostQueue {
  private next: Promise<StartedHost> | null = null

  take(): Promise<StartedHost> {
    const host = this.next ?? startHost()
    this.next = null
    return host
  }

  prepareNext(): void {
    this.next ??= startHost()
    // A failed start is reported by the test that takes it.
    this.next.catch(() => undefined)
  }

  async close(): Promise<void> {
    const spare = this.next
    this.next = null
    const host = await spare?.catch(() => null)
    if (host) await stopHost(host)
  }
}

export const test = base.extend<{ modus: ModusHarness }, { hosts: HostQueue }>({
  hosts: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const queue = new HostQueue()
      await use(queue)
      await queue.close()
    },
    { scope: 'worker' }
  ],
  modus: async ({ hosts }, use, testInfo) => {
    const host = await hosts.take()
    const parsed = new URL(host.url)
    let fake: FakeProvider | undefined
    try {
      fake = await startFakeProvider({ name: testInfo.title })
      await use({
        url: host.url,
        origin: parsed.origin,
        token: new URLSearchParams(parsed.hash.slice(1)).get('token')!,
        fake,
        workspace: host.workspace,
        dataDir: host.dataDir
      })
    } finally {
      // A failed test carries the host's own output: a crash or a lost connection then says why.
      if (testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('web-host.log', { body: host.output(), contentType: 'text/plain' })
      hosts.prepareNext()
      await stopHost(host)
      await fake?.close()
    }
  }
})

export { expect }

/** Opens the workspace through the path field and configures the fake provider, as a user would. */
export async function openWorkspaceAndProvider(
  page: Page,
  modus: ModusHarness,
  kind: 'anthropic' | 'openai' = 'anthropic'
): Promise<void> {
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByLabel('Provider', { exact: true }).selectOption(kind)
  await page.getByLabel(/Base URL/).fill(kind === 'anthropic' ? modus.fake.anthropicBaseUrl : modus.fake.openaiBaseUrl)
  await page.getByLabel('Model').fill(kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  // Saving first tests the connection to the fake provider: on a loaded machine that alone can pass 10 s.
  await expect(page.getByLabel('Message')).toBeVisible({ timeout: 60_000 })
}
