import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { toolResultsIn } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'

/**
 * The mode editor's sandbox section, and a sandboxed command's network ask in the approval queue.
 * The "unlisted domain" is a loopback HTTP server: loopback is a host like any other for the
 * sandbox (a plain curl goes through its proxy and asks). The sandbox is on by default in Code mode.
 */
test('shows the sandbox on in Code mode and edits it; a command reaching an unlisted host asks, and allowed once it completes', async ({
  page,
  modus
}) => {
  const server = createServer((_request, response) => response.end('hello from the loopback host\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const command = `curl -fsS --max-time 45 http://127.0.0.1:${port}/`
  try {
    await openWorkspaceAndProvider(page, modus)
    await page.getByRole('button', { name: 'Modes' }).click()
    await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
    const editor = page.getByRole('form', { name: 'Edit mode Code' })
    const roots = editor.getByLabel(/^Writable roots/)
    const network = editor.getByLabel('Network', { exact: true })
    // On by default in the built-in Code mode; the note says what on means (and off, once turned off).
    await expect(editor.getByRole('switch', { name: /in an OS sandbox/ })).toBeChecked()
    await expect(editor.getByText(/^On: its commands write only to the writable roots/)).toBeVisible()
    await expect(roots).toBeEnabled()
    const toggle = editor.getByRole('switch', { name: /in an OS sandbox/ })
    await toggle.uncheck()
    await expect(editor.getByText(/^Off: its commands run with your full user rights/)).toBeVisible()
    await toggle.check()
    await expect(editor.getByRole('status').filter({ hasText: 'sandbox' })).toHaveText('The sandbox is available here.')
    await roots.fill('.\nbuild-output')
    await network.selectOption('ask')
    await editor.getByLabel(/^Allowed domains/).fill('registry.npmjs.org')
    await editor.getByLabel(/^Commands that run outside the sandbox/).fill('docker *')
    await editor.getByRole('switch', { name: /Run commands no rule matches when they run in the sandbox/ }).check()
    await editor.getByLabel('Save to').selectOption('global')
    await editor.getByRole('button', { name: 'Save override' }).click()
    await expect(editor.getByText('overrides built-in')).toBeVisible()

    await page.reload()
    await page.getByRole('button', { name: 'Modes' }).click()
    await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
    const reloaded = page.getByRole('form', { name: 'Edit mode Code' })
    await expect(reloaded.getByRole('switch', { name: /in an OS sandbox/ })).toBeChecked()
    await expect(reloaded.getByLabel(/^Writable roots/)).toHaveValue('.\nbuild-output')
    await expect(reloaded.getByLabel('Network', { exact: true })).toHaveValue('ask')
    await expect(reloaded.getByLabel(/^Allowed domains/)).toHaveValue('registry.npmjs.org')
    await expect(reloaded.getByLabel(/^Commands that run outside the sandbox/)).toHaveValue('docker *')
    await expect(
      reloaded.getByRole('switch', { name: /Run commands no rule matches when they run in the sandbox/ })
    ).toBeChecked()
    const saved = readFileSync(join(modus.dataDir, 'modes.yaml'), 'utf8')
    expect(saved).toContain('network: ask')
    expect(saved).toContain('build-output')
    expect(saved).toMatch(/unsandboxedCommands:\n\s+- docker \*/)

    // The command itself is auto-approved (sandboxed, no rule matches); its connection asks.
    modus.fake.enqueue(
      { toolCalls: [{ name: 'execute_command', input: { command } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Fetched.' } }] }
    )
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click()
    await page.getByLabel('Message').fill('Fetch the page')
    await page.getByLabel('Message').press('Enter')
    const nav = page.getByRole('navigation', { name: 'Views' })
    await expect(nav.getByRole('button', { name: /Approvals/ })).toContainText('1', { timeout: 30_000 })
    await nav.getByRole('button', { name: /Approvals/ }).click()
    const queue = page.getByRole('region', { name: 'Approvals' })
    const card = queue.locator('.approval-card[aria-current="true"]')
    await expect(card).toContainText('Network request from the sandbox')
    await expect(card).toContainText(`${command} wants 127.0.0.1:${port}`)
    await expect(card.locator('.approval-why')).toContainText('not on the sandbox allow list of Code mode')
    await card.getByRole('button', { name: 'Allow once' }).click()
    await expect(queue).toContainText('Nothing is waiting for you.')

    await nav.getByRole('button', { name: 'Chat' }).click()
    const toolCard = page.getByRole('group', { name: 'Tool call execute_command' })
    await expect(toolCard.locator('.tool-result-text')).toContainText('hello from the loopback host')
    await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Fetched.')
    const sent = toolResultsIn(modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1])
    expect(sent[0].text).toMatch(/^Command exited with code 0 in /)
    expect(sent[0].text).not.toContain('Sandbox: blocked')
  } finally {
    server.close()
  }
})
