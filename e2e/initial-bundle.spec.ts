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
  expect(scripts.some((script) => script.body.includes('xterm-helper-textarea'))).toBe(true)
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
