import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from '@playwright/test'
import { toolResultsIn, type RecordedRequest } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'

// A scripted model drives the browser tool on a page this spec serves on 127.0.0.1: the user
// approves the page (shown with its origin), the card shows what came back, the model gets the
// screenshot as an image in either wire protocol, and a foreign origin asks.

const APP = `<!doctype html><html><head><title>Sample app</title></head><body style="margin:0">
<button style="position:absolute;left:0;top:0;width:200px;height:100px"
  onclick="console.log('button clicked');document.getElementById('name').focus()">Start</button>
<input id="name" style="position:absolute;left:0;top:150px" oninput="console.log('typed ' + this.value)">
<script>console.log('page ready')</script>
</body></html>`

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const browser = (input: Record<string, string>) => ({ toolCalls: [{ name: 'browser_action', input }] })
const cards = (page: Page): Locator => page.getByRole('group', { name: 'Tool call browser_action' })

test.describe.configure({ timeout: 120_000 })

let server: Server
let app = ''
test.beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(APP))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  app = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

/** The model requests that carried a tool result, in order, for one protocol. */
const answered = (requests: readonly RecordedRequest[], protocol: RecordedRequest['protocol']) =>
  requests.filter((request) => request.protocol === protocol && toolResultsIn(request).length > 0)

test('the model launches a local page after approval, clicks, types, reads screenshot and console, closes; a foreign origin asks', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    browser({ action: 'launch', url: `${app}/app` }),
    browser({ action: 'click', coordinate: '100,50' }),
    browser({ action: 'type', text: 'Ada' }),
    browser({ action: 'close' }),
    browser({ action: 'launch', url: 'https://example.com/upload' }),
    completion('The form works.')
  )
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Check the form in the browser')

  // Opening the page asks (Code mode has no browser toggle on); the approval names the page and its origin.
  const launch = cards(page).first()
  await expect(launch.locator('.phase')).toHaveText('waiting for approval')
  const target = launch.getByRole('definition').filter({ hasText: app })
  await expect(launch.getByLabel('Page to open')).toContainText(`Page${app}/app`)
  await expect(launch.getByLabel('Page to open')).toContainText(`Origin${app}`)
  await expect(target.first()).toBeVisible()
  await expect(launch.locator('.tool-decision')).toContainText(`the origin ${app}`)
  await launch.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(launch.locator('.phase')).toHaveText('done')

  // Each action's card carries its screenshot, the URL and the console since the previous action.
  await expect(cards(page)).toHaveCount(5)
  const [opened, clicked, typed, closed] = [0, 1, 2, 3].map((index) => cards(page).nth(index))
  await expect(opened.locator('.tool-result-text')).toContainText(`Current URL: ${app}/app`)
  await expect(opened.locator('.tool-result-text')).toContainText('[log] page ready')
  await expect(clicked.locator('.tool-result-text')).toContainText('[log] button clicked')
  await expect(typed.locator('.tool-result-text')).toContainText('[log] typed Ada')
  for (const card of [opened, clicked, typed]) {
    await expect(card.locator('img.tool-result-image')).toHaveAttribute('src', /^data:image\/png;base64,iVBORw0KGgo/)
  }
  await expect(closed.locator('.tool-result-text')).toHaveText('The browser was closed.')
  // The card shows the screenshot, URL and console without opening the result; a click enlarges it.
  await expect(clicked.locator('.browser-url')).toHaveText(`URL ${app}/app`)
  await expect(clicked.getByLabel('Console output')).toHaveText('[log] button clicked')
  await clicked.getByRole('button', { name: 'Enlarge the screenshot' }).click()
  const large = page.getByRole('dialog', { name: 'Screenshot' })
  await expect(large.locator('img')).toBeVisible()
  expect(await large.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(900)
  await large.getByRole('button', { name: 'Close' }).click()
  await expect(large).toHaveCount(0)

  // A page on another origin always asks, and why says which origin; rejected, nothing is opened.
  const foreign = cards(page).nth(4)
  await expect(foreign.locator('.phase')).toHaveText('waiting for approval')
  await expect(foreign.getByLabel('Page to open')).toContainText('Originhttps://example.com')
  await expect(foreign.locator('.tool-decision')).toContainText('the origin https://example.com always needs approval')
  await foreign.getByRole('button', { name: 'Reject…' }).click()
  await foreign.getByLabel(/The reason goes to the model/).fill('Stay on the local app')
  await foreign.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('The form works.')

  // What the model received: the screenshot as an image block next to the URL and console text.
  const sent = answered(modus.fake.requests, 'anthropic')
  expect(sent).toHaveLength(5)
  const resultBlock = (request: RecordedRequest) => {
    const last = request.body.messages[request.body.messages.length - 1]
    return last.content.find((block: { type: string }) => block.type === 'tool_result')
  }
  for (const [index, line] of [
    [0, '[log] page ready'],
    [1, '[log] button clicked'],
    [2, '[log] typed Ada']
  ] as const) {
    const block = resultBlock(sent[index])
    expect(block.is_error).toBeFalsy()
    const image = block.content.find((part: { type: string }) => part.type === 'image')
    expect(image.source).toMatchObject({ type: 'base64', media_type: 'image/png' })
    expect(Buffer.from(image.source.data, 'base64').subarray(1, 4).toString()).toBe('PNG')
    expect(toolResultsIn(sent[index])[0].text).toContain(line)
    expect(toolResultsIn(sent[index])[0].text).toContain(`Current URL: ${app}/app`)
  }
  expect(toolResultsIn(sent[3])[0].text).toBe('The browser was closed.')
  expect(toolResultsIn(sent[4])[0].text).toContain('Stay on the local app')
  expect(modus.fake.failures).toEqual([])
})

test('over the OpenAI protocol the screenshot reaches the model as an image after the tool message', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(browser({ action: 'launch', url: `${app}/` }), browser({ action: 'close' }), completion('Seen.'))
  await openWorkspaceAndProvider(page, modus, 'openai')
  await send(page, 'Look at the app')
  const launch = cards(page).first()
  await expect(launch.getByLabel('Page to open')).toContainText(`Origin${app}`)
  await launch.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Seen.')

  const [first] = answered(modus.fake.requests, 'openai')
  const messages = first.body.messages as Array<{ role: string; content: unknown }>
  const tool = messages.findIndex((message) => message.role === 'tool')
  expect(String(messages[tool].content)).toContain(`Current URL: ${app}/`)
  expect(String(messages[tool].content)).toContain('1 image(s) attached in the next message')
  const images = messages[tool + 1].content as Array<{ type: string; image_url?: { url: string } }>
  expect(messages[tool + 1].role).toBe('user')
  expect(images.find((part) => part.type === 'image_url')?.image_url?.url).toMatch(
    /^data:image\/png;base64,iVBORw0KGgo/
  )
  expect(modus.fake.failures).toEqual([])
})
