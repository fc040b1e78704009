import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, openWorkspaceAndProvider, test } from './harness'

test('a wrong or missing token is refused', async ({ page, modus }) => {
  const missing = await page.goto(`${modus.origin}/`)
  expect(missing?.status()).toBe(401)
  const wrong = await page.goto(`${modus.origin}/?token=not-the-token`)
  expect(wrong?.status()).toBe(401)
  await expect(page.getByText('needs the token')).toBeVisible()
})

test('a page from a foreign origin cannot open the socket, even knowing the token', async ({ page, modus }) => {
  const foreign = createServer((_req, res) => res.end('<!doctype html><title>elsewhere</title>'))
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
  try {
    await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`)
    const outcome = await page.evaluate(
      (target) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(target)
          ws.onopen = () => resolve('open')
          ws.onerror = () => resolve('refused')
        }),
      `ws://127.0.0.1:${new URL(modus.origin).port}/ws?token=${modus.token}`
    )
    expect(outcome).toBe('refused')
  } finally {
    foreign.close()
  }
})

test('opens a workspace, streams a reply and cancels a second one mid-stream', async ({ page, modus }) => {
  modus.fake.enqueue(
    {
      text: 'Hello from the fake model. The workspace has a README and a greet function.',
      chunkDelayMs: 40,
      toolCalls: [{ name: 'attempt_completion', input: { result: 'Described the project.' } }]
    },
    { text: 'This answer is long and will be cut off by the user before it ends', chunkDelayMs: 60, hangAfterChunks: 4 }
  )
  await openWorkspaceAndProvider(page, modus)
  await expect(page.getByText('sample-project')).toBeVisible()

  await page.getByLabel('Message').fill('What is in this project?')
  await page.getByLabel('Message').press('Enter')
  const reply = page.locator('.assistant-text').last()
  // Streaming: a partial reply is visible before the whole one is.
  await expect(reply).toContainText('Hello from')
  await expect(reply).toHaveText('Hello from the fake model. The workspace has a README and a greet function.')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Described the project.')

  await page.getByLabel('Message').fill('Tell me more')
  await page.getByLabel('Message').press('Enter')
  const second = page.locator('.assistant-text').last()
  await expect(second).toContainText('This answer is')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('Cancelled')).toBeVisible()
  // The partial answer is kept.
  await expect(second).toContainText('This answer is')
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()

  // What the real SDK sent reached the fake provider with the stored key.
  const modelRequests = modus.fake.requests.filter((r) => r.protocol === 'anthropic')
  expect(modelRequests.length).toBeGreaterThanOrEqual(2)
  expect(modelRequests[0].headers.authorization).toBe('Bearer sk-test-key-1234')
  expect(modus.fake.failures).toEqual([])
})

test('the key never comes back to the page', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByText('key …1234')).toBeVisible()
  expect(await page.content()).not.toContain('sk-test-key-1234')
})
