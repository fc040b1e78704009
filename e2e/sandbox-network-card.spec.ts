import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { toolResultsIn } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'

/**
 * A sandboxed command's network ask where the user is looking: on the chat card of the command,
 * as well as in the Approvals queue. The "unlisted host" is a loopback HTTP server: 127.0.0.1 is on
 * the sandbox's NO_PROXY list, so curl is told `--noproxy ''` to send it through the sandbox proxy
 * like any other host (as in sandbox.spec.ts).
 */

async function loopbackServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.end('hello from the loopback host\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

/** Code mode with the sandbox on, asking for unlisted hosts, running commands no rule names inside it. */
async function sandboxCodeModeAsking(page: Page, modus: ModusHarness): Promise<void> {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /^Code/ }).click()
  const editor = page.getByRole('form', { name: 'Edit mode Code' })
  await editor.getByRole('switch', { name: /in an OS sandbox/ }).check()
  await expect(editor.getByRole('status').filter({ hasText: 'sandbox' })).toHaveText('The sandbox is available here.')
  await editor.getByLabel('Network', { exact: true }).selectOption('ask')
  await editor.getByRole('switch', { name: /Run commands no rule matches when they run in the sandbox/ }).check()
  await editor.getByLabel('Save to').selectOption('global')
  await editor.getByRole('button', { name: 'Save override' }).click()
  await expect(editor.getByText('overrides built-in')).toBeVisible()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click()
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

test('the network ask shows on the command card with host and port, and answered there the command connects', async ({
  page,
  modus
}) => {
  const { server, port } = await loopbackServer()
  const command = `curl -fsS --max-time 45 --noproxy '' http://127.0.0.1:${port}/`
  try {
    await sandboxCodeModeAsking(page, modus)
    modus.fake.enqueue(
      { toolCalls: [{ name: 'execute_command', input: { command } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Fetched.' } }] }
    )
    await send(page, 'Fetch the page')

    const toolCard = page.getByRole('group', { name: 'Tool call execute_command' })
    const ask = toolCard.getByRole('listitem', { name: `Network request to 127.0.0.1:${port}` })
    await expect(ask).toContainText(`Network request from the sandbox: host 127.0.0.1, port ${port}`, {
      timeout: 30_000
    })
    await expect(toolCard.locator('.phase')).toHaveText('waiting for approval')
    await expect(ask.getByRole('button', { name: 'Allow once' })).toBeVisible()
    await expect(ask.getByRole('button', { name: 'Always in this mode…' })).toBeVisible()
    await expect(ask.getByRole('button', { name: 'Deny…' })).toBeVisible()
    // The same item waits in the queue.
    const nav = page.getByRole('navigation', { name: 'Views' })
    await expect(nav.getByRole('button', { name: /Approvals/ })).toContainText('1')

    await ask.getByRole('button', { name: 'Allow once' }).click()
    await expect(ask.locator('[aria-live="polite"]')).toHaveText(`You allowed 127.0.0.1:${port} for this run of curl.`)
    await expect(ask).toBeFocused()
    await expect(ask.getByRole('button')).toHaveCount(0)
    await expect(toolCard.locator('.tool-result-text')).toContainText('hello from the loopback host')
    await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Fetched.')

    // Answered in the card, it is answered in the queue too.
    await nav.getByRole('button', { name: /Approvals/ }).click()
    await expect(page.getByRole('region', { name: 'Approvals' })).toContainText('Nothing is waiting for you.')
    const sent = toolResultsIn(modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1])
    expect(sent[0].text).toMatch(/^Command exited with code 0 in /)
  } finally {
    server.close()
  }
})

test('a command that gives up while its ask waits leaves the card saying so, and the queue empty', async ({
  page,
  modus
}) => {
  const { server, port } = await loopbackServer()
  const command = `curl -fsS --max-time 4 --noproxy '' http://127.0.0.1:${port}/`
  try {
    await sandboxCodeModeAsking(page, modus)
    modus.fake.enqueue(
      { toolCalls: [{ name: 'execute_command', input: { command } }] },
      { toolCalls: [{ name: 'attempt_completion', input: { result: 'Could not fetch.' } }] }
    )
    await send(page, 'Fetch the page')

    const toolCard = page.getByRole('group', { name: 'Tool call execute_command' })
    const ask = toolCard.getByRole('listitem', { name: `Network request to 127.0.0.1:${port}` })
    await expect(ask.getByRole('button', { name: 'Allow once' })).toBeVisible({ timeout: 30_000 })
    // Nobody answers: curl's own time limit ends the command, and the ask with it.
    const gaveUp = new RegExp(
      `^curl gave up waiting for approval of 127\\.0\\.0\\.1:${port} after (\\d+ s|less than a second)\\.$`
    )
    await expect(ask.locator('[aria-live="polite"]')).toHaveText(gaveUp, { timeout: 30_000 })
    await expect(ask.getByRole('button')).toHaveCount(0)
    await expect(toolCard.locator('.phase')).toHaveText('failed (exit 28)')
    await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Could not fetch.')

    const sent = toolResultsIn(modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1])
    expect(sent[0].text).toMatch(
      new RegExp(
        `^Sandbox: curl gave up waiting for approval of 127\\.0\\.0\\.1:${port} after .+; the connection was refused\\.$`,
        'm'
      )
    )
    const nav = page.getByRole('navigation', { name: 'Views' })
    await nav.getByRole('button', { name: /Approvals/ }).click()
    await expect(page.getByRole('region', { name: 'Approvals' })).toContainText('Nothing is waiting for you.')

    // The card keeps it after a reload (from the task's log).
    await page.reload()
    const reloaded = page
      .getByRole('group', { name: 'Tool call execute_command' })
      .getByRole('listitem', { name: `Network request to 127.0.0.1:${port}` })
    await expect(reloaded.locator('[aria-live="polite"]')).toHaveText(gaveUp)
  } finally {
    server.close()
  }
})
