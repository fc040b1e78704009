import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, openWorkspaceAndProvider, test } from './harness'

test('a wrong or missing token is refused', async ({ page, modus }) => {
  await page.goto(`${modus.origin}/`)
  await expect(page.getByText('needs the token')).toBeVisible()
  await page.goto(`${modus.origin}/#token=not-the-token`)
  await page.reload()
  await expect(page.getByText('needs the token')).toBeVisible()
  await expect(page.getByLabel('Folder path')).toHaveCount(0)
})

/** A page on another local port, recording every request the browser sends it. */
async function startForeignPage(): Promise<{ url: string; seen: string[]; close(): void }> {
  const seen: string[] = []
  const foreign = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}`)
    res.end('<!doctype html><title>elsewhere</title>')
  })
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`, seen, close: () => foreign.close() }
}

test('a page from a foreign origin cannot open the socket, even knowing the token', async ({ page, modus }) => {
  const foreign = await startForeignPage()
  try {
    await page.goto(foreign.url)
    const outcome = await page.evaluate(
      ([target, token]) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(target, ['modus', `modus-token.${token}`])
          ws.onopen = () => resolve('open')
          ws.onerror = () => resolve('refused')
        }),
      [`ws://127.0.0.1:${new URL(modus.origin).port}/ws`, modus.token]
    )
    expect(outcome).toBe('refused')
  } finally {
    foreign.close()
  }
})

test('another local page never obtains the token, and the address bar drops it', async ({ page, context, modus }) => {
  await page.goto(modus.url)
  await expect(page.getByLabel('Folder path')).toBeVisible()
  expect(page.url()).not.toContain(modus.token)
  // A reload keeps working without the token in the address.
  await page.reload()
  await expect(page.getByLabel('Folder path')).toBeVisible()

  const foreign = await startForeignPage()
  try {
    const other = await context.newPage()
    await other.goto(foreign.url)
    await other.goto(`${foreign.url}again`)
    const visible = await other.evaluate(() =>
      JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } })
    )
    // Before: the auth cookie reached every 127.0.0.1 port, and with it the whole core.
    expect(foreign.seen.length).toBeGreaterThanOrEqual(2)
    for (const request of foreign.seen) expect(request).not.toContain(modus.token)
    expect(visible).not.toContain(modus.token)
    const socket = await other.evaluate(
      (target) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(target, ['modus'])
          ws.onopen = () => resolve('open')
          ws.onerror = () => resolve('refused')
        }),
      `ws://127.0.0.1:${new URL(modus.origin).port}/ws`
    )
    expect(socket).toBe('refused')
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
