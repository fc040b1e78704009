import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page, Request, Route } from 'playwright-core'
import { startEgressProxy, type EgressProxy } from './egress-proxy'
import { findChromium, type ChromiumLookup } from './find-chromium'

export interface Viewport {
  width: number
  height: number
}

export const DEFAULT_VIEWPORT: Viewport = { width: 900, height: 600 }

/** Whether the policy lets the browser open a page unasked, and why not; `from`: the page that starts it. */
export type PageCheck = (url: string, from?: string) => Promise<{ allowed: boolean; reason: string }>

/**
 * What the page tried on its own that the policy did not allow: a navigation (a clicked link, a
 * script) or a request (an image, a script, a fetch, a frame, a WebSocket) to another origin.
 */
export interface BlockedNavigation {
  url: string
  reason: string
  kind: 'navigation' | 'request'
}

/** One task's browser: a page, its viewport, and what the page logged since the last drain. */
export interface BrowserSession {
  readonly page: Page
  viewport: Viewport
  /** Console messages and page errors since the previous call, then forgotten. */
  drainLogs(): { console: string[]; errors: string[] }
  /** A page the user or the policy approved through launch: navigations to it (its origin) go on unasked. */
  approve(url: string): void
  /** The policy check of the current call's mode; every other top-level navigation passes it first. */
  checkPagesWith(check: PageCheck): void
  /** Navigations and requests blocked since the previous call, then forgotten. */
  drainBlocked(): BlockedNavigation[]
  /** Resolves once no top-level navigation is in flight (started, not yet answered or refused), or after timeoutMs. */
  navigationsDone(timeoutMs: number): Promise<void>
}

/** What an approval covers: an origin, or one file for file:// pages. */
const approvalKey = (url: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'file:' ? `file://${parsed.pathname}` : parsed.origin
  } catch {
    return url
  }
}

export interface BrowserSessions {
  /** The task's open session, or undefined before launch / after close. */
  get(taskId: string): BrowserSession | undefined
  /** Opens the task's browser (only launch does); an open one is reused. Throws with advice when no browser exists. */
  open(taskId: string): Promise<BrowserSession>
  close(taskId: string): Promise<void>
  dispose(): Promise<void>
}

export interface BrowserSessionsDeps {
  viewport?: () => Viewport
  findBrowser?: () => Promise<ChromiumLookup>
  /** Extra Chromium switches (tests and containers: --no-sandbox). */
  args?: string[]
}

/** The log lines a page may pile up between two actions; older ones are dropped with a note. */
const MAX_LOG_LINES = 200

type Verdict = { allowed: boolean; reason: string }
/**
 * The current check, what it blocked, its verdicts on the origins requests went to (asked once each),
 * and the browser's egress proxy, told of each destination a request is let through to.
 */
type GuardState = {
  check?: PageCheck
  blocked: BlockedNavigation[]
  requestVerdicts: Map<string, Promise<Verdict>>
  egress: Pick<EgressProxy, 'allow'>
}

/**
 * Whether a page may load or be reached: approved through launch, or allowed by the mode's policy
 * for a page on `from` (origins are exact: the page's own origin is not another port's).
 */
async function verdictFor(
  url: string,
  from: string | undefined,
  approved: Set<string>,
  state: GuardState
): Promise<Verdict> {
  if (approved.has(approvalKey(url))) return { allowed: true, reason: 'approved' }
  if (!state.check) return { allowed: false, reason: 'no policy to check it against' }
  return state.check(url, from).catch((error: Error) => ({ allowed: false, reason: error.message }))
}

/** The page a request or navigation comes from: its frame's document, else the page's (`about:blank` before the first load: none). */
function initiatorOf(page: Page, request?: Request): string | undefined {
  let url = page.url()
  try {
    if (request) url = request.frame().url() || url
  } catch {
    // A request with no frame (a service worker's) counts as the page's.
  }
  return /^(https?|file):/i.test(url) ? url : undefined
}

/** Schemes that reach the network; other requests (data:, blob:, file:) cannot carry anything away. */
const NETWORK_URL = /^(https?|wss?):/i

/**
 * A request the page sends by itself may go where an approved page could: the launched origins and
 * those the mode allows unasked. Anything else could carry what the page holds to another origin.
 */
function requestVerdict(
  url: string,
  from: string | undefined,
  approved: Set<string>,
  state: GuardState
): Promise<Verdict> {
  if (!NETWORK_URL.test(url)) return Promise.resolve({ allowed: true, reason: 'not a network request' })
  // A socket is judged as the page of its host would be (ws:// as http://).
  const asPage = url.replace(/^ws/i, 'http')
  const key = approvalKey(asPage)
  // Approvals come before the cache: a launch may approve an origin an earlier request was refused.
  if (approved.has(key)) return Promise.resolve({ allowed: true, reason: 'approved' })
  const cacheKey = `${from === undefined ? '' : approvalKey(from)} ${key}`
  let verdict = state.requestVerdicts.get(cacheKey)
  if (!verdict) state.requestVerdicts.set(cacheKey, (verdict = verdictFor(asPage, from, approved, state)))
  return verdict
}

async function guardRequest(route: Route, state: GuardState, approved: Set<string>, page: Page): Promise<void> {
  const url = route.request().url()
  const verdict = await requestVerdict(url, initiatorOf(page, route.request()), approved, state)
  if (verdict.allowed) {
    state.egress.allow(url)
    return route.continue()
  }
  state.blocked.push({ url, reason: verdict.reason, kind: 'request' })
  return route.abort('blockedbyclient')
}

/** A navigation into a new window (a popup): Playwright has no frame for it yet. */
function opensWindow(request: Request): boolean {
  try {
    request.frame()
    return false
  } catch {
    return true
  }
}

/**
 * Every top-level navigation — the page's own (a clicked link, a script, a form) as well as launch's —
 * is held until it is known to be approved: a page may send the model somewhere the policy would
 * have asked about. One that is not is cancelled and reported to the model. A popup is never opened:
 * the model sees one page, and a new window would escape the redirect guard below.
 */
async function guardNavigations(page: Page, approved: Set<string>, state: GuardState): Promise<void> {
  await guardRedirects(page, approved, state)
  page.context().on('page', (other) => void (other !== page && other.close().catch(() => undefined)))
  await page.context().route('**/*', async (route) => {
    const request = route.request()
    if (!request.isNavigationRequest()) return guardRequest(route, state, approved, page)
    const popup = opensWindow(request)
    if (!popup && request.frame().parentFrame() !== null) return guardRequest(route, state, approved, page)
    const verdict = popup
      ? { allowed: false, reason: 'it would open in a new window, and browser_action drives a single page' }
      : await verdictFor(request.url(), initiatorOf(page), approved, state)
    if (verdict.allowed) {
      state.egress.allow(request.url())
      return route.continue()
    }
    state.blocked.push({ url: request.url(), reason: verdict.reason, kind: 'navigation' })
    // A 204 answer makes the browser stay on the current page (an abort would show an error page).
    return route.fulfill({ status: 204 })
  })
  await page.context().routeWebSocket(/.*/, async (socket) => {
    const verdict = await requestVerdict(socket.url(), initiatorOf(page), approved, state)
    if (verdict.allowed) {
      state.egress.allow(socket.url())
      socket.connectToServer()
      return
    }
    state.blocked.push({ url: socket.url(), reason: verdict.reason, kind: 'request' })
    await socket.close({ code: 1008, reason: 'blocked by the browser policy' })
  })
}

/**
 * Playwright's routes never see the hops of a server-side redirect (Chromium follows them itself), so
 * a page on an approved origin could redirect anywhere. A DevTools interception of the page's own
 * holds each hop of a top-level navigation until the same check has passed it.
 */
async function guardRedirects(page: Page, approved: Set<string>, state: GuardState): Promise<void> {
  const devtools = await page.context().newCDPSession(page)
  const tree = await devtools.send('Page.getFrameTree')
  const mainFrame = tree.frameTree.frame.id
  // The URL the main frame last asked for: a redirect hop comes from there (A redirecting to B is A reaching B).
  let previous: string | undefined
  devtools.on('Fetch.requestPaused', (event) => {
    const requestId = event.requestId
    const hop = event.redirectedRequestId !== undefined && event.frameId === mainFrame
    const from = hop ? previous : undefined
    if (event.frameId === mainFrame) previous = event.request.url
    const decide = async () => {
      if (!hop) return devtools.send('Fetch.continueRequest', { requestId })
      const verdict = await verdictFor(event.request.url, from ?? initiatorOf(page), approved, state)
      if (verdict.allowed) {
        state.egress.allow(event.request.url)
        return devtools.send('Fetch.continueRequest', { requestId })
      }
      state.blocked.push({ url: event.request.url, reason: verdict.reason, kind: 'navigation' })
      return devtools.send('Fetch.fulfillRequest', { requestId, responseCode: 204, body: '' })
    }
    // A closed page or browser leaves nothing to answer.
    decide().catch(() => undefined)
  })
  await devtools.send('Fetch.enable', {
    patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }]
  })
}

async function startSession(page: Page, viewport: Viewport, navigation: GuardState): Promise<BrowserSession> {
  const approved = new Set<string>()
  await guardNavigations(page, approved, navigation)
  let consoleLines: string[] = []
  let errors: string[] = []
  let dropped = 0
  const keep = (list: string[], line: string) => {
    if (list.length >= MAX_LOG_LINES) {
      list.shift()
      dropped += 1
    }
    list.push(line)
  }
  // A navigation a click started may still wait for its check when the action reports: it is waited for.
  const inFlight = new Set<Request>()
  const isTopLevel = (request: Request) =>
    request.isNavigationRequest() && !opensWindow(request) && request.frame() === page.mainFrame()
  page.on('request', (request) => void (isTopLevel(request) && inFlight.add(request)))
  page.on('requestfinished', (request) => void inFlight.delete(request))
  page.on('requestfailed', (request) => void inFlight.delete(request))
  page.on('console', (message) => keep(consoleLines, `[${message.type()}] ${message.text()}`))
  page.on('pageerror', (error) => keep(errors, error.message))
  return {
    page,
    viewport,
    drainLogs() {
      const drained = {
        console: dropped > 0 ? [`(${dropped} older lines dropped)`, ...consoleLines] : consoleLines,
        errors
      }
      consoleLines = []
      errors = []
      dropped = 0
      return drained
    },
    approve(url) {
      approved.add(approvalKey(url))
      navigation.egress.allow(url)
    },
    checkPagesWith(check) {
      // Each call brings its mode's check: verdicts of another call's check no longer hold.
      if (check !== navigation.check) navigation.requestVerdicts.clear()
      navigation.check = check
    },
    async navigationsDone(timeoutMs) {
      const end = Date.now() + timeoutMs
      while (inFlight.size > 0 && Date.now() < end && !page.isClosed())
        await new Promise((done) => setTimeout(done, 25))
    },
    drainBlocked() {
      const blocked = navigation.blocked
      navigation.blocked = []
      return blocked
    }
  }
}

/**
 * A fresh profile per session with "preload pages" off (`net.network_prediction_options` 2, never):
 * speculation rules (prefetch, prerender) and preconnect hints are fetched by the browser itself,
 * outside the page's request interception, so a page could otherwise send what it holds to any origin.
 * A preference is the only switch for them; it needs a profile written before launch. Some builds
 * (the @sparticuz/chromium headless shell) ignore it: the egress proxy stops those fetches there.
 */
async function preparedProfile(): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'modus-browser-'))
  await mkdir(join(profile, 'Default'))
  await writeFile(join(profile, 'Default', 'Preferences'), JSON.stringify({ net: { network_prediction_options: 2 } }))
  return profile
}

const removeProfile = (profile: string): Promise<void> =>
  rm(profile, { recursive: true, force: true }).catch(() => undefined)

/** What a session leaves behind once its browser is gone. */
type Leftovers = { profile: string; egress: EgressProxy }
const cleanUp = async ({ profile, egress }: Leftovers): Promise<void> => {
  await Promise.all([removeProfile(profile), egress.close()])
}

/** One Playwright browser per task, opened by launch, closed by close, at task end and on cancel. */
export function createBrowserSessions(deps: BrowserSessionsDeps = {}): BrowserSessions {
  const sessions = new Map<string, Leftovers & { context: BrowserContext; session: BrowserSession }>()
  const opening = new Map<string, Promise<BrowserSession>>()
  const viewport = deps.viewport ?? (() => DEFAULT_VIEWPORT)

  const launch = async (taskId: string): Promise<BrowserSession> => {
    const lookup = await (deps.findBrowser ?? findChromium)()
    if (lookup.path === null) throw new Error(lookup.advice)
    // Chromium refuses to start its sandbox as root (containers); there it runs without one.
    const asRoot = process.getuid?.() === 0
    // WebRTC would reach STUN servers outside the request guard: it gets no UDP, and its TCP goes through
    // the egress proxy. The headless-shell build of @sparticuz/chromium honours only the `force-` form of the switch.
    const noUdp = 'disable_non_proxied_udp'
    const args = [
      ...(deps.args ?? []),
      ...(asRoot ? ['--no-sandbox'] : []),
      `--webrtc-ip-handling-policy=${noUdp}`,
      `--force-webrtc-ip-handling-policy=${noUdp}`
    ]
    // Loaded on the first launch: importing Playwright costs every process half a second at start.
    const { chromium } = await import('playwright-core')
    // Refusals are not listed for the model: most are the browser's own background traffic, not the page's.
    const egress = await startEgressProxy()
    const profile = await preparedProfile().catch(async (error: Error) => {
      await egress.close()
      throw error
    })
    const leftovers: Leftovers = { profile, egress }
    const size = { ...viewport() }
    // Loopback is proxied too (Chromium bypasses it by default): the test and dev servers the agent opens live there.
    const proxy = { server: leftovers.egress.server, bypass: '<-loopback>' }
    let context: BrowserContext
    try {
      context = await chromium.launchPersistentContext(leftovers.profile, {
        executablePath: lookup.path,
        headless: true,
        args,
        viewport: size,
        proxy
      })
    } catch (error) {
      await cleanUp(leftovers)
      throw error
    }
    try {
      const page = context.pages()[0] ?? (await context.newPage())
      const session = await startSession(page, size, { blocked: [], requestVerdicts: new Map(), egress })
      sessions.set(taskId, { ...leftovers, context, session })
      context.on('close', () => {
        if (sessions.get(taskId)?.context === context) sessions.delete(taskId)
        void cleanUp(leftovers)
      })
      return session
    } catch (error) {
      await context.close().catch(() => undefined)
      await cleanUp(leftovers)
      throw error
    }
  }

  const close = async (taskId: string) => {
    await opening.get(taskId)?.catch(() => undefined)
    const entry = sessions.get(taskId)
    sessions.delete(taskId)
    await entry?.context.close().catch(() => undefined)
    if (entry) await cleanUp(entry)
  }

  return {
    get: (taskId) => sessions.get(taskId)?.session,
    async open(taskId) {
      const open = sessions.get(taskId)
      if (open) return open.session
      let pending = opening.get(taskId)
      if (!pending) {
        pending = launch(taskId).finally(() => opening.delete(taskId))
        opening.set(taskId, pending)
      }
      return pending
    },
    close,
    async dispose() {
      await Promise.all([...new Set([...sessions.keys(), ...opening.keys()])].map(close))
    }
  }
}
