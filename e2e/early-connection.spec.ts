import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Browser, Page, WebSocket } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'

// Issue 28 item 21: a small script the page runs first opens the socket and asks for the first
// screen while the app's own code still loads; the app takes that socket and those answers over.

interface SocketLog {
  sockets: WebSocket[]
  sent: string[]
  received: string[]
}

function logSockets(page: Page): SocketLog {
  const log: SocketLog = { sockets: [], sent: [], received: [] }
  page.on('websocket', (socket) => {
    log.sockets.push(socket)
    socket.on('framesent', (frame) => log.sent.push(String(frame.payload)))
    socket.on('framereceived', (frame) => log.received.push(String(frame.payload)))
  })
  return log
}

const channelsSent = (log: SocketLog): string[] =>
  log.sent.map((frame) => (JSON.parse(frame) as { channel: string }).channel)

/** Holds back the scripts `held` names, then opens the app; call the returned function to let them through. */
async function openHolding(page: Page, url: string, held: RegExp): Promise<() => void> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(held, async (route) => {
    await released
    await route.continue()
  })
  await page.goto(url, { waitUntil: 'commit' }) // "load" would wait for the held script
  return release
}

const APP_SCRIPT = /\/assets\/index-[^/]*\.js$/

const earlyAnswers = (log: SocketLog): number =>
  log.received.filter((frame) => frame.includes('"kind":"response"')).length

/** A returning user's page in a fresh browser context (no cache, no session storage). */
async function returningUser(browser: Browser, page: Page, modus: ModusHarness): Promise<Page> {
  await openWorkspaceAndProvider(page, modus)
  const context = await browser.newContext()
  return context.newPage()
}

test('the first screen is asked for while the app still loads, and shown from those answers', async ({
  browser,
  page,
  modus
}) => {
  const fresh = await returningUser(browser, page, modus)
  const log = logSockets(fresh)
  // Notes whether the folder picker (the first run's screen) is ever put in the page.
  await fresh.addInitScript(() => {
    new MutationObserver(() => {
      const labels = [...document.querySelectorAll('label')].map((label) => label.textContent)
      if (labels.includes('Folder path')) (window as unknown as { pickerShown: boolean }).pickerShown = true
    }).observe(document, { childList: true, subtree: true })
  })
  // The app's module scripts are held until the test lets them through.
  const release = await openHolding(fresh, modus.url, APP_SCRIPT)
  // Seven answers (the workspace, settings, approvals, tasks, modes, recent folders, the index),
  // all before any of the app's code has run.
  await expect.poll(() => earlyAnswers(log)).toBe(7)
  expect(log.received.join('\n')).toContain(modus.workspace)
  await expect(fresh.locator('#root')).toBeEmpty()

  release()
  await expect(fresh.getByLabel('Message')).toBeEnabled()
  await expect(fresh.getByRole('button', { name: /^Folder .*: switch folder$/ })).toBeVisible()
  const beforeUp = [...log.received]
  // The app took that socket over, and those answers: each first-screen request went out once, unless
  // an event from the core (say the code index of the folder opened above) made them stale first.
  expect(log.sockets).toHaveLength(1)
  if (!beforeUp.some((frame) => frame.includes('"kind":"event"'))) {
    // With the answers in before the app ran, its first render is the chat: no picker replaced by it.
    expect(await fresh.evaluate(() => (window as unknown as { pickerShown?: boolean }).pickerShown)).toBeUndefined()
    const sent = channelsSent(log)
    for (const channel of ['workspace:current', 'settings:get', 'approvals:list', 'task:list', 'modes:list'])
      expect(
        sent.filter((name) => name === channel),
        channel
      ).toHaveLength(1)
  }

  // And it is the app's socket from then on: a message goes out on it and is answered.
  await fresh.getByLabel('Message').fill('hello over the early socket')
  await fresh.getByLabel('Message').press('Enter')
  await expect(fresh.getByRole('heading', { name: 'hello over the early socket' })).toBeVisible()
  expect(channelsSent(log)).toContain('task:start')
  expect(log.sockets).toHaveLength(1)
  await fresh.context().close()
})

test('answers made stale by a change in the core while the app loads are asked for again', async ({
  browser,
  page,
  modus
}) => {
  const other = join(dirname(modus.workspace), 'other-project')
  mkdirSync(other)
  const fresh = await returningUser(browser, page, modus)
  const log = logSockets(fresh)
  const release = await openHolding(fresh, modus.url, APP_SCRIPT)
  await expect.poll(() => earlyAnswers(log)).toBe(7)

  // Meanwhile, in the first tab, the user switches folders: the early answers name the old one.
  await page.getByRole('banner').getByRole('button', { name: 'Folder sample-project: switch folder' }).click()
  const dialog = page.getByRole('dialog', { name: 'Switch folder' })
  await dialog.getByLabel('Folder path').fill(other)
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Folder other-project: switch folder' })).toBeVisible()
  await expect.poll(() => log.received.some((frame) => frame.includes('"kind":"event"'))).toBe(true)

  // The app asks the core again rather than show the old folder first.
  release()
  await expect(fresh.getByRole('button', { name: 'Folder other-project: switch folder' })).toBeVisible()
  await expect(fresh.getByLabel('Message')).toBeEnabled()
  expect(channelsSent(log).filter((name) => name === 'workspace:current')).toHaveLength(2)
  await fresh.context().close()
})

test('with a wrong token the early socket is refused and the page receives nothing', async ({
  browser,
  page,
  modus
}) => {
  await openWorkspaceAndProvider(page, modus)
  const context = await browser.newContext()
  const stranger = await context.newPage()
  const log = logSockets(stranger)
  await stranger.goto(`${modus.origin}/#token=not-the-token`)
  await expect(stranger.getByText('needs the token')).toBeVisible()
  expect(log.sockets.length).toBeGreaterThan(0) // the early script did try
  expect(log.sent).toEqual([])
  expect(log.received).toEqual([])
  expect(await stranger.content()).not.toContain(modus.workspace)
  await context.close()
})

test('an early script that arrives after the app has connected stands down', async ({ browser, page, modus }) => {
  const fresh = await returningUser(browser, page, modus)
  const log = logSockets(fresh)
  // Noted when the early script has run (a script's load event follows its execution).
  await fresh.addInitScript(() => {
    document.addEventListener(
      'load',
      (event) => {
        const target = event.target as HTMLScriptElement
        if (target.tagName === 'SCRIPT' && /\/early-[^/]*\.js$/.test(target.src))
          (window as unknown as { earlyRan: boolean }).earlyRan = true
      },
      true
    )
  })
  const release = await openHolding(fresh, modus.url, /\/assets\/early-[^/]*\.js$/)
  await expect(fresh.getByLabel('Message')).toBeEnabled()
  release()
  await fresh.waitForFunction(() => (window as unknown as { earlyRan?: boolean }).earlyRan === true)
  expect(log.sockets).toHaveLength(1)
  await fresh.getByLabel('Message').fill('still one socket')
  await fresh.getByLabel('Message').press('Enter')
  await expect(fresh.getByRole('heading', { name: 'still one socket' })).toBeVisible()
  expect(log.sockets).toHaveLength(1)
  await fresh.context().close()
})

test("the event schemas load after the returning user's composer, not while its answers travel", async ({
  browser,
  page,
  modus
}) => {
  const fresh = await returningUser(browser, page, modus)
  const schemaRequests: string[] = []
  fresh.on('request', (request) => {
    if (/\/assets\/(client-events|zod)-[^/]*\.js$/.test(request.url())) schemaRequests.push(request.url())
  })
  // The core's answers are held until the test lets them through, so the page paints and goes idle first.
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await fresh.routeWebSocket(/\/ws$/, (socket) => {
    const server = socket.connectToServer()
    server.onMessage((message) => void released.then(() => socket.send(message)))
  })
  await fresh.goto(modus.url)
  await expect(fresh.getByLabel('Folder path')).toBeVisible()
  await fresh.evaluate(
    () => new Promise((idle) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(idle))))
  )
  expect(schemaRequests).toEqual([])

  release()
  await expect(fresh.getByLabel('Message')).toBeEnabled()
  await expect.poll(() => schemaRequests.length).toBeGreaterThan(0)
  // Events still arrive parsed: a message's reply streams in.
  await fresh.getByLabel('Message').fill('after the schemas')
  await fresh.getByLabel('Message').press('Enter')
  await expect(fresh.getByRole('heading', { name: 'after the schemas' })).toBeVisible()
  await fresh.context().close()
})

test('a reload before the first screen is up still finds the token', async ({ browser, page, modus }) => {
  const fresh = await returningUser(browser, page, modus)
  // The first load's answers never arrive: the page is left before its first screen.
  let holding = true
  await fresh.routeWebSocket(/\/ws$/, (socket) => {
    const server = socket.connectToServer()
    server.onMessage((message) => holding || socket.send(message))
  })
  await fresh.goto(modus.url)
  await expect(fresh.getByLabel('Folder path')).toBeVisible()
  expect(fresh.url()).not.toContain(modus.token)
  holding = false

  await fresh.reload()
  await expect(fresh.getByLabel('Message')).toBeEnabled()
  await fresh.context().close()
})

test('the theme chosen last shows before the core has answered', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')

  // A second tab of the same browser, whose answers are held: the cached theme is all it has.
  const second = await page.context().newPage()
  let holding = true
  await second.routeWebSocket(/\/ws$/, (socket) => {
    const server = socket.connectToServer()
    server.onMessage((message) => holding || socket.send(message))
  })
  await second.goto(modus.url)
  await expect(second.getByLabel('Folder path')).toBeVisible()
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'dark')
  holding = false
  await second.close()
})

// An async script is fetched last and at low priority unless told otherwise: the early script then
// came in with or after the app's chunk, and the socket opened no sooner than the app could open it.
test("the early script is asked for first, at high priority, before the app's scripts", async ({ page, modus }) => {
  const cdp = await page.context().newCDPSession(page)
  const asked: Array<{ url: string; priority: string }> = []
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.type === 'Script') asked.push({ url: event.request.url, priority: event.request.initialPriority })
  })
  await cdp.send('Network.enable')
  await page.goto(modus.url)
  await expect(page.getByLabel('Folder path')).toBeEditable()
  const early = asked.findIndex((request) => /\/assets\/early-[^/]*\.js$/.test(request.url))
  const app = asked.findIndex((request) => APP_SCRIPT.test(request.url))
  expect(early, 'the early script is fetched').toBeGreaterThanOrEqual(0)
  expect(asked[early].priority).toBe('High')
  expect(early).toBeLessThan(app)
})
