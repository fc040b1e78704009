import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test } from './harness'

// Issue #28 item 9 (WCAG 2.4.3): after every action the keyboard lands on the next thing to act on,
// or back where the user came from, never on <body>. Each step is taken with the keyboard.

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const command = (text: string) => ({ toolCalls: [{ name: 'execute_command', input: { command: text } }] })

/** Moves the keyboard onto a control and presses it (Enter), as a keyboard user does after tabbing there. */
async function press(control: Locator): Promise<void> {
  await control.focus()
  await control.press('Enter')
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

test('trust prompt and the first provider: Keep asking, Save provider and Trust move the keyboard on', async ({
  page,
  modus
}) => {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'modes.yaml'),
    'customModes:\n  - slug: fast\n    name: Fast\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    autoApprove: { command: true }\n'
  )
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByLabel('Folder path').press('Enter')
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await expect(prompt.getByRole('button', { name: 'Keep asking' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(prompt).toBeHidden()
  // The provider form is next: its first field has the keyboard.
  await expect(page.getByLabel('Provider', { exact: true })).toBeFocused()

  await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
  await page.getByLabel(/Base URL/).fill(modus.fake.anthropicBaseUrl)
  await page.getByLabel('Model').fill('claude-sonnet-4-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await press(page.getByRole('button', { name: 'Save provider' }))
  await expect(page.getByLabel('Message')).toBeFocused()

  await press(page.getByRole('button', { name: /Restricted/ }))
  await press(prompt.getByRole('button', { name: 'Trust this workspace' }))
  await expect(prompt).toBeHidden()
  await expect(page.getByLabel('Message')).toBeFocused()
})

test('a menu opened while the first provider is still saving keeps the keyboard', async ({ page, modus }) => {
  // The form gives way to the chat as soon as the core holds the provider; the save's last answer
  // (making it the active one) can come later on a loaded machine. It is held back here until the
  // user is already at work in the chat: the message field must not take the keyboard from them.
  let activating: number | null = null
  let release: (() => void) | null = null
  await page.routeWebSocket(/./, (ws) => {
    const server = ws.connectToServer()
    ws.onMessage((frame) => {
      const request = JSON.parse(String(frame)) as { id: number; channel: string }
      if (request.channel === 'settings:setActiveProvider') activating = request.id
      server.send(frame)
    })
    server.onMessage((frame) => {
      const message = JSON.parse(String(frame)) as { kind: string; id?: number }
      if (message.kind === 'response' && message.id === activating) release = () => ws.send(frame)
      else ws.send(frame)
    })
  })
  await openWorkspaceAndProvider(page, modus)
  await expect.poll(() => release !== null).toBe(true)

  await page.getByRole('button', { name: /^Mode: / }).click()
  const menu = page.getByRole('menu', { name: 'Modes' })
  await expect(menu.getByRole('menuitemradio', { name: /^Code/ })).toBeFocused()
  release!()
  // The answer reaches the page before these frames end: a focus move it causes would have happened.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  await expect(menu.getByRole('menuitemradio', { name: /^Code/ })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(menu.getByRole('menuitemradio', { name: /^Architect/ })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Mode: Architect' })).toBeFocused()
})

test('a chat card: Always allow shows the rule, Back returns, Approve and Cancel go on to the message field', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(command('echo focus-one'), { text: 'Thinking about it. '.repeat(400), chunkDelayMs: 50 })
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Run it')
  const card = page.getByRole('group', { name: 'Tool call execute_command' })
  await expect(card).toContainText('waiting for approval')

  await press(card.getByRole('button', { name: 'Always allow in this mode…' }))
  await expect(card.getByRole('button', { name: 'Save rule and approve' })).toBeFocused()
  await press(card.getByRole('button', { name: 'Back' }))
  await expect(card.getByRole('button', { name: 'Always allow in this mode…' })).toBeFocused()

  await press(card.getByRole('button', { name: 'Reject…' }))
  await expect(card.getByLabel(/The reason goes to the model/)).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(card.getByRole('button', { name: 'Reject…' })).toBeFocused()

  await press(card.getByRole('button', { name: 'Approve', exact: true }))
  await expect(card.locator('.tool-result-text')).toContainText('focus-one')
  await expect(page.getByLabel('Message')).toBeFocused()

  // The second reply streams slowly: Cancel it from the keyboard.
  await expect(page.locator('.assistant-text').last()).toContainText('Thinking about it.')
  await press(page.getByRole('button', { name: 'Cancel', exact: true }))
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  await expect(page.getByLabel('Message')).toBeFocused()
})

test('the queue, the folder switcher and the provider settings give the keyboard back', async ({ page, modus }) => {
  modus.fake.enqueue(command('echo queued'), completion('Done.'))
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Queue it')
  const nav = page.getByRole('navigation', { name: 'Views' })
  await expect(nav.getByRole('button', { name: /Approvals/ })).toContainText('1')
  await press(nav.getByRole('button', { name: /Approvals/ }))
  const queue = page.getByRole('region', { name: 'Approvals' })
  await expect(queue.locator('.approval-card[aria-current="true"]')).toBeFocused()
  await page.keyboard.press('a')
  await expect(queue).toContainText('Nothing is waiting for you.')
  // The last item answered: back to where the user came from.
  await expect(nav.getByRole('button', { name: /Approvals/ })).toBeFocused()

  const folder = page.getByRole('button', { name: /^Folder .*: switch folder$/ })
  await press(folder)
  await expect(page.getByLabel('Folder path')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page.getByLabel('Folder path')).toBeHidden()
  await expect(folder).toBeFocused()
  await press(folder)
  await press(page.getByRole('dialog', { name: 'Switch folder' }).getByRole('button', { name: 'Cancel' }))
  await expect(folder).toBeFocused()

  await press(nav.getByRole('button', { name: 'Settings' }))
  const edit = page.getByRole('button', { name: /^Edit / })
  await press(edit)
  const form = page.locator('.provider-row form')
  await expect(form.locator('select, input').first()).toBeFocused()
  await press(form.getByRole('button', { name: 'Cancel' }))
  await expect(edit).toBeFocused()
  await press(edit)
  await press(page.locator('.provider-row form').getByRole('button', { name: 'Save provider' }))
  await expect(page.getByRole('status').filter({ hasText: /Saved/ })).toBeVisible()
  await expect(edit).toBeFocused()

  await press(page.getByRole('button', { name: 'Add provider' }))
  await expect(page.getByRole('region', { name: 'New provider' }).locator('select, input').first()).toBeFocused()
  await press(page.getByRole('region', { name: 'New provider' }).getByRole('button', { name: 'Cancel' }))
  await expect(page.getByRole('button', { name: 'Add provider' })).toBeFocused()
})

test('Open settings on a provider failure lands on the provider to fix', async ({ page, modus }) => {
  modus.fake.enqueue({ error: { status: 401, message: 'invalid x-api-key' } })
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Hello')
  const error = page.locator('.bubble.error')
  await expect(error.getByRole('button')).toHaveText(['Retry', 'Open settings'])
  await press(error.getByRole('button', { name: 'Open settings' }))
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Edit / })).toBeFocused()
})

test.describe('the screenshot lightbox', () => {
  test.describe.configure({ timeout: 120_000 })
  let server: Server
  let app = ''
  test.beforeAll(async () => {
    server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shot</title><h1>Shot</h1>')
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    app = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  test.afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  test('Esc closes the full-size screenshot and returns to its thumbnail', async ({ page, modus }) => {
    modus.fake.enqueue(
      { toolCalls: [{ name: 'browser_action', input: { action: 'launch', url: `${app}/` } }] },
      { toolCalls: [{ name: 'browser_action', input: { action: 'close' } }] },
      completion('Seen.')
    )
    await openWorkspaceAndProvider(page, modus)
    await send(page, 'Look at the page')
    const launch = page.getByRole('group', { name: 'Tool call browser_action' }).first()
    await press(launch.getByRole('button', { name: 'Approve', exact: true }))
    // Starting Chromium for the tool may take a while on a busy machine.
    await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Seen.', { timeout: 60_000 })
    const thumbnail = launch.getByRole('button', { name: 'Enlarge the screenshot' })
    await press(thumbnail)
    const large = page.getByRole('dialog', { name: 'Screenshot' })
    await expect(large.getByRole('button', { name: 'Close' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(large).toHaveCount(0)
    await expect(thumbnail).toBeFocused()
  })
})
