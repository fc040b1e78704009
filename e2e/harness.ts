import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { startFakeProvider, type FakeProvider } from '../test/support/fake-provider'

export interface ModusHarness {
  /** The URL the web host printed, token included. */
  url: string
  origin: string
  token: string
  fake: FakeProvider
  workspace: string
  dataDir: string
}

const SERVE_ENTRY = resolve(__dirname, '../out/main/serve.js')

/** Starts the built web host (`out/main/serve.js`) as a user would, on its own data dir. */
async function startServe(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVE_ENTRY, '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' }
  })
  const url = await new Promise<string>((resolvePromise, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 20_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /serving at (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolvePromise(match[1])
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)))
  })
  return { child, url }
}

export const test = base.extend<{ modus: ModusHarness }>({
  modus: async ({}, use, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'modus-e2e-'))
    const workspace = join(root, 'sample-project')
    mkdirSync(join(workspace, 'src'), { recursive: true })
    writeFileSync(join(workspace, 'README.md'), '# Sample project\n')
    writeFileSync(join(workspace, 'src', 'greet.ts'), 'export const greet = (name: string) => `Hello ${name}`\n')
    const dataDir = join(root, 'data')
    const fake = await startFakeProvider({ name: testInfo.title })
    const { child, url } = await startServe(dataDir)
    const parsed = new URL(url)
    try {
      await use({ url, origin: parsed.origin, token: parsed.searchParams.get('token')!, fake, workspace, dataDir })
    } finally {
      // Wait for the host to exit: it may still be appending task logs that rmSync would race.
      const exited = new Promise((resolveExit) => (child.exitCode !== null ? resolveExit(null) : child.once('exit', resolveExit)))
      child.kill('SIGTERM')
      await exited
      await fake.close()
      rmSync(root, { recursive: true, force: true })
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
  await page
    .getByLabel(/Base URL/)
    .fill(kind === 'anthropic' ? modus.fake.anthropicBaseUrl : modus.fake.openaiBaseUrl)
  await page.getByLabel('Model').fill(kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
}
