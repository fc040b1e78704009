import { expect, openWorkspaceAndProvider, test } from './harness'

// Monaco and xterm are big; they must load when a diff or a terminal is first shown, never at start.
test('starting the app and opening the chat loads neither Monaco nor xterm', async ({ page, modus }) => {
  const scripts: Array<{ url: string; body: string }> = []
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push({ url: response.url(), body: await response.text() })
  })
  await openWorkspaceAndProvider(page, modus)
  await expect(page.getByLabel('Message')).toBeVisible()
  await page.waitForLoadState('networkidle')

  expect(scripts.length).toBeGreaterThan(0)
  for (const script of scripts) {
    expect(script.body, `${script.url} carries Monaco`).not.toContain('monaco-diff-editor')
    expect(script.body, `${script.url} carries xterm`).not.toContain('xterm-helper-textarea')
  }

  // And they do load, locally, once asked for.
  await page.getByRole('button', { name: 'Terminal', exact: true }).click()
  await page.getByRole('button', { name: 'New terminal' }).click()
  await expect(page.locator('.xterm-screen').first()).toBeVisible()
  // Polled: a response's body is read after it arrives, and the terminal can be on screen before that.
  await expect.poll(() => scripts.some((script) => script.body.includes('xterm-helper-textarea'))).toBe(true)
  expect(scripts.every((script) => new URL(script.url).hostname === '127.0.0.1')).toBe(true)
})

// The first screen needs neither the policy engine (re2js, which the mode schema pulls in) nor the
// contract's zod schemas: the page's entry script and what it preloads must not carry them.
test('the scripts the page loads first carry neither zod nor the re2js policy engine', async ({ page, modus }) => {
  const html = await (await page.request.get(`${modus.origin}/`)).text()
  const first = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map(
    (match) => new URL(match[1], `${modus.origin}/`).href
  )
  expect(first.length).toBeGreaterThan(0)
  for (const url of first) {
    const body = await (await page.request.get(url)).text()
    // Booleans, so a failure names the file instead of printing the whole minified chunk.
    expect(body.includes('missing argument to repetition operator'), `${url} carries re2js`).toBe(false)
    expect(body.includes('ZodError'), `${url} carries zod (node scripts/first-chunk.mjs shows which import)`).toBe(
      false
    )
  }
  // They still load, after the first paint, and events still arrive parsed: the chat works.
  await openWorkspaceAndProvider(page, modus)
  await expect(page.getByLabel('Message')).toBeVisible()
})

// Only the chat shell is in the first scripts (issue 28 item 21): every other view is its own chunk,
// fetched when it is first shown (or when the browser is idle after start). A string each view shows
// stands for its code.
const LAZY_VIEWS = [
  { nav: 'Approvals', marker: 'Nothing is waiting for you.', shown: { role: 'heading', name: 'Approvals' } },
  { nav: 'Changes', marker: 'Which changes', shown: { role: 'heading', name: 'Changes' } },
  { nav: 'Terminal', marker: 'Terminal tabs', shown: { role: 'heading', name: 'Terminals' } },
  { nav: 'MCP', marker: 'Config problems', shown: { role: 'heading', name: 'MCP servers' } },
  { nav: 'History', marker: 'words from the title, a mode, a status', shown: { role: 'heading', name: 'History' } },
  {
    nav: 'Settings',
    marker: 'Servers are added and edited in the MCP view.',
    shown: { role: 'heading', name: 'Settings' }
  },
  { nav: 'Worktrees', marker: 'Isolated tasks', shown: { role: 'heading', name: 'Tasks in worktrees' } }
] as const

test('the first scripts hold the chat, not the other views; each view loads when shown', async ({ page, modus }) => {
  const html = await (await page.request.get(`${modus.origin}/`)).text()
  const first = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map(
    (match) => new URL(match[1], `${modus.origin}/`).href
  )
  const bodies = await Promise.all(first.map(async (url) => (await page.request.get(url)).text()))
  expect(bodies.some((body) => body.includes('Answer or give more instructions'))).toBe(true)
  for (const view of LAZY_VIEWS)
    expect(
      bodies.some((body) => body.includes(view.marker)),
      `the ${view.nav} view's code is in the first scripts`
    ).toBe(false)
  // The provider form of the first run is its own chunk too.
  expect(bodies.some((body) => body.includes('Common servers'))).toBe(false)

  await openWorkspaceAndProvider(page, modus)
  for (const view of LAZY_VIEWS) {
    await page.getByRole('button', { name: view.nav, exact: true }).click()
    await expect(page.getByRole(view.shown.role, { name: view.shown.name, exact: true, level: 1 })).toBeVisible()
  }
  await page.getByRole('button', { name: 'Chat', exact: true }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
})
