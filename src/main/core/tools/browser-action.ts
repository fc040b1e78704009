import type { BrowserActionParams } from '../../../shared/tools/browser-action'
import type { BlockedNavigation, BrowserSession, BrowserSessions } from '../browser/browser-sessions'
import { textOutput, type ToolContext, type ToolExecutor, type ToolOutput } from '../ports/tool-types'

/** How long a navigation may take before it is reported as failed. */
const NAVIGATION_TIMEOUT_MS = 15_000
/** After an input, how long the page gets to react (navigate, re-render) before the screenshot. */
const SETTLE_MS = 300

const errorText = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error))

const SCHEMES = new Set(['http:', 'https:', 'file:'])

function checkUrl(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `"${url}" is not a URL: give a full address such as http://localhost:3000 or file:///path/to/page.html.`
  }
  return SCHEMES.has(parsed.protocol)
    ? null
    : `Only http://, https:// and file:// pages can be opened, not ${parsed.protocol}`
}

function outsideViewport(session: BrowserSession, point: { x: number; y: number }): string | null {
  const { width, height } = session.viewport
  return point.x < width && point.y < height
    ? null
    : `The coordinate ${point.x},${point.y} is outside the ${width}x${height} viewport: use x < ${width} and y < ${height} (or resize first).`
}

/** Waits for a navigation the action may have started, without failing when there is none. */
async function settle(session: BrowserSession): Promise<void> {
  await session.page.waitForTimeout(SETTLE_MS)
  await session.navigationsDone(NAVIGATION_TIMEOUT_MS)
  await session.page.waitForLoadState('load', { timeout: NAVIGATION_TIMEOUT_MS }).catch(() => undefined)
}

/** The screenshot, URL and logs since the previous action: what every action returns. */
async function report(
  session: BrowserSession,
  done: string,
  ctx: ToolContext,
  isError = false,
  stopped = session.drainBlocked()
): Promise<ToolOutput> {
  const shot = await session.page.screenshot({ type: 'png' })
  const logs = session.drainLogs()
  const blocked = describeBlocked(stopped)
  const lines = [
    done,
    ...blocked,
    `Current URL: ${session.page.url()}`,
    `Viewport: ${session.viewport.width}x${session.viewport.height}`,
    logs.console.length > 0
      ? `Console since the previous action:\n${logs.console.join('\n')}`
      : 'Console since the previous action: (none)',
    logs.errors.length > 0
      ? `Page errors since the previous action:\n${logs.errors.join('\n')}`
      : 'Page errors since the previous action: (none)'
  ]
  if (!ctx.modelSupportsImages)
    lines.push('(A screenshot was taken but not sent: this model does not take images. Rely on the URL and console.)')
  const text = { type: 'text' as const, text: lines.join('\n') }
  // The user always sees the screenshot; the loop sends it only to a model that reads images.
  return {
    content: [text, { type: 'image', mediaType: 'image/png', dataBase64: shot.toString('base64') }],
    isError
  }
}

/** Requests listed one by one up to this many; a page that keeps retrying would flood the result. */
const MAX_BLOCKED_REQUESTS = 10

function describeBlocked(stopped: readonly BlockedNavigation[]): string[] {
  const lines = stopped
    .filter((entry) => entry.kind === 'navigation')
    .map(
      (entry) =>
        `The page tried to open ${entry.url}; it was not opened (${entry.reason}). To go there, call browser_action launch with that url, so the user can approve it.`
    )
  const requests = [
    ...new Map(stopped.filter((entry) => entry.kind === 'request').map((entry) => [entry.url, entry])).values()
  ]
  for (const entry of requests.slice(0, MAX_BLOCKED_REQUESTS))
    lines.push(`The page sent a request to ${entry.url}; it was blocked (${entry.reason}).`)
  if (requests.length > MAX_BLOCKED_REQUESTS)
    lines.push(`(${requests.length - MAX_BLOCKED_REQUESTS} more blocked requests to other URLs)`)
  if (requests.length > 0)
    lines.push(
      'A page may only reach the origins it was opened from and those this mode allows; a browser URL rule in the mode allows more.'
    )
  return lines
}

async function launch(sessions: BrowserSessions, url: string, ctx: ToolContext): Promise<ToolOutput> {
  const problem = checkUrl(url)
  if (problem) return textOutput(problem, true)
  let session: BrowserSession
  try {
    session = await sessions.open(ctx.taskId)
  } catch (error) {
    return textOutput(`The browser could not be started: ${errorText(error)}`, true)
  }
  session.checkPagesWith(pageCheckOf(ctx))
  session.approve(url) // the launch call itself was judged by the policy (and the user, when asked)
  try {
    const response = await session.page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS })
    const status = response ? ` (HTTP ${response.status()})` : ''
    return await report(session, `Opened ${url}${status}.`, ctx, response !== null && response.status() >= 400)
  } catch (error) {
    // The page redirected somewhere the policy did not allow: that, not a network failure, is the news.
    const stopped = session.drainBlocked()
    if (stopped.some((entry) => entry.kind === 'navigation'))
      return await report(session, `Opening ${url} led to a page that was not opened.`, ctx, true, stopped)
    const logs = session.drainLogs()
    const errors = logs.errors.length > 0 ? `\nPage errors: ${logs.errors.join('; ')}` : ''
    return textOutput(`Navigation to ${url} failed: ${errorText(error)}${errors}`, true)
  }
}

/** The mode's check for pages the browser opens on its own; without one, none opens unasked. */
const pageCheckOf = (ctx: ToolContext) =>
  ctx.checkPage ?? (async () => ({ allowed: false, reason: 'no policy is available to approve it' }))

/** Runs one action on the open page; a string back is an error for the model. */
async function act(session: BrowserSession, params: BrowserActionParams): Promise<string | null> {
  const { page } = session
  switch (params.action) {
    case 'click':
    case 'hover': {
      const point = params.coordinate!
      const outside = outsideViewport(session, point)
      if (outside) return outside
      if (params.action === 'click') await page.mouse.click(point.x, point.y)
      else await page.mouse.move(point.x, point.y)
      return null
    }
    case 'type':
      await page.keyboard.type(params.text ?? '')
      return null
    case 'press':
      try {
        await page.keyboard.press(params.key!)
      } catch (error) {
        return `The key "${params.key}" could not be pressed: ${errorText(error)}`
      }
      return null
    case 'scroll_down':
    case 'scroll_up': {
      const delta = session.viewport.height * (params.action === 'scroll_down' ? 1 : -1)
      await page.mouse.wheel(0, delta)
      return null
    }
    case 'resize':
      await page.setViewportSize(params.size!)
      session.viewport = { ...params.size! }
      return null
    default:
      return null // screenshot: nothing to do but report
  }
}

const DONE: Record<Exclude<BrowserActionParams['action'], 'launch' | 'close'>, (p: BrowserActionParams) => string> = {
  click: (p) => `Clicked at ${p.coordinate!.x},${p.coordinate!.y}.`,
  hover: (p) => `Moved the mouse to ${p.coordinate!.x},${p.coordinate!.y}.`,
  type: (p) => `Typed ${JSON.stringify(p.text)}.`,
  press: (p) => `Pressed ${p.key}.`,
  scroll_down: () => 'Scrolled down one page.',
  scroll_up: () => 'Scrolled up one page.',
  resize: (p) => `Resized the viewport to ${p.size!.width}x${p.size!.height}.`,
  screenshot: () => 'Screenshot of the page.'
}

/** browser_action: drives the task's one browser session (see browser/browser-sessions.ts). */
export function createBrowserActionExecutor(sessions: BrowserSessions): ToolExecutor<BrowserActionParams> {
  return {
    async execute(params, ctx) {
      if (params.action === 'launch') return launch(sessions, params.url!, ctx)
      const session = sessions.get(ctx.taskId)
      if (params.action === 'close') {
        if (!session) return textOutput('No browser is open in this task; nothing to close.')
        await sessions.close(ctx.taskId)
        return textOutput('The browser was closed.')
      }
      if (!session)
        return textOutput(`No browser is open: start with browser_action launch (url) before ${params.action}.`, true)
      session.checkPagesWith(pageCheckOf(ctx))
      try {
        const problem = await act(session, params)
        if (problem) return textOutput(problem, true)
        // A screenshot changes nothing on the page, so there is nothing to wait for.
        if (params.action !== 'screenshot') await settle(session)
        return await report(session, DONE[params.action](params), ctx)
      } catch (error) {
        if (!sessions.get(ctx.taskId)) return textOutput(`The browser was closed during ${params.action}.`, true)
        return textOutput(`browser_action ${params.action} failed: ${errorText(error)}`, true)
      }
    }
  }
}
