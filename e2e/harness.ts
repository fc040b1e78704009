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



export const test = base.extend<{ modus: ModusHarness }>({
  modus: async ({}, use, testInfo) => {
    const root = mkdtempSync(join(tmpdir(), 'modus-e2e-'))
    const workspace = join(root, 'sample-project')
    mkdirSync(join(workspace, 'src'), { recursive: true })
    writeFileSync(join(workspace, 'README.md'), '# Sample project\n')
    writeFileSync(join(workspace, 'src', 'greet.ts'), 'export const greet = (name: string) => `Hello ${name}`\n')
    const dataDir = join(root, 'data')
    const fake = await startFakeProvider({ name: testInfo.title })
    const { child, url } = await startServeProcess(dataDir)
    const parsed = new URL(url)
    try {
      await use({ url, origin: parsed.origin, token: new URLSearchParams(parsed.hash.slice(1)).get('token')!, fake, workspace, dataDir })
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
