import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright'
import { SERVE_ENTRY, startServeProcess } from '../test/support/serve-process'
import { startFakeProvider, type FakeProvider } from '../test/support/fake-provider'
import playwrightConfig from '../playwright.config'

// Shared by the ui-*.bench.ts files: the built web host (out/main/serve.js) on its own data dir,
// the fake provider, and Chromium launched the way the e2e run launches it.

export const RENDERER_DIR = resolve(__dirname, '../out/renderer')

export interface UiBench {
  url: string
  fake: FakeProvider
  workspace: string
  dataDir: string
  browser: Browser
  close(): Promise<void>
}

export function requireBuild(): void {
  if (!existsSync(SERVE_ENTRY) || !existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('Build first: npx electron-vite build (the UI benchmarks run the built web host).')
  }
}

export interface UiBenchOptions {
  /** Another build's web host (`<checkout>/out/main/serve.js`), to compare with in the same run. */
  serveEntry?: string
  /** A browser already launched (shared by both builds of a comparison); it is not closed here. */
  browser?: Browser
}

/** `prepare` runs on the fresh data dir before the web host starts (e.g. to write a task log). */
export async function startUiBench(
  prepare?: (dataDir: string, workspace: string) => Promise<void>,
  options: UiBenchOptions = {}
): Promise<UiBench> {
  if (!options.serveEntry) requireBuild()
  const root = mkdtempSync(join(tmpdir(), 'modus-ui-bench-'))
  const workspace = join(root, 'project')
  const dataDir = join(root, 'data')
  mkdirSync(join(workspace, 'src'), { recursive: true })
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(join(workspace, 'README.md'), '# Bench project\n')
  writeFileSync(join(workspace, 'src', 'index.ts'), 'export const answer = 42\n')
  await prepare?.(dataDir, workspace)
  const fake = await startFakeProvider({ name: 'ui-bench' })
  const { child, url } = await startServeProcess(dataDir, options.serveEntry)
  const browser = options.browser ?? (await chromium.launch({ ...playwrightConfig.use?.launchOptions, headless: true }))
  return {
    url,
    fake,
    workspace,
    dataDir,
    browser,
    async close() {
      if (!options.browser) await browser.close()
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
      await fake.close()
      rmSync(root, { recursive: true, force: true, maxRetries: 5 })
    }
  }
}

/** Opens the workspace and configures the fake provider through the UI, as a user does. */
export async function openWorkspaceAndProvider(page: Page, bench: UiBench): Promise<void> {
  await page.goto(bench.url)
  await page.getByLabel('Folder path').fill(bench.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  const providerForm = page.getByRole('form', { name: 'Provider settings' })
  await providerForm.or(page.getByLabel('Message')).first().waitFor()
  if (await providerForm.isVisible()) {
    await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
    await page.getByLabel(/Base URL/).fill(bench.fake.anthropicBaseUrl)
    await page.getByLabel('Model').fill('claude-sonnet-4-5')
    await page.getByLabel('API key').fill('sk-bench-key-0000')
    await page.getByRole('button', { name: 'Save provider' }).click()
  }
  await page.getByLabel('Message').waitFor()
}

/**
 * Records every animation frame's duration in the page until `stopFrameRecorder` is called:
 * the gap between consecutive requestAnimationFrame callbacks is the frame time the user sees.
 */
export async function startFrameRecorder(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = {
      frames: [] as number[],
      ends: [] as number[],
      longTasks: [] as Array<{ at: number; duration: number }>,
      last: performance.now(),
      running: true,
      observer: null as PerformanceObserver | null
    }
    ;(window as unknown as { __frames: typeof state }).__frames = state
    // Long tasks are main-thread work over 50 ms by the page itself, unlike frame gaps, which a busy
    // machine can also cause.
    state.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        state.longTasks.push({ at: entry.startTime + performance.timeOrigin, duration: entry.duration })
    })
    state.observer.observe({ type: 'longtask' })
    const tick = (now: number) => {
      if (!state.running) return
      state.frames.push(now - state.last)
      state.ends.push(now + performance.timeOrigin)
      state.last = now
      requestAnimationFrame(tick)
    }
    requestAnimationFrame((now) => {
      state.last = now
      requestAnimationFrame(tick)
    })
  })
}

export async function stopFrameRecorder(page: Page): Promise<number[]> {
  return (await stopFrameRecorderWithTimes(page)).frames
}

export interface FrameRecording {
  frames: number[]
  /** Wall-clock time (ms since the epoch) each frame ended. */
  ends: number[]
  longTasks: Array<{ at: number; duration: number }>
}

export async function stopFrameRecorderWithTimes(page: Page): Promise<FrameRecording> {
  return page.evaluate(() => {
    const state = (
      window as unknown as {
        __frames: FrameRecording & { running: boolean; observer: PerformanceObserver | null }
      }
    ).__frames
    state.running = false
    state.observer?.disconnect()
    return { frames: state.frames, ends: state.ends, longTasks: state.longTasks }
  })
}

export const describeLongTasks = (tasks: FrameRecording['longTasks']): string =>
  tasks.length === 0
    ? 'no long tasks (> 50 ms of page work)'
    : `${tasks.length} long task(s) (> 50 ms of page work), max ${fmtMs(Math.max(...tasks.map((t) => t.duration)))} ms, total ${fmtMs(
        tasks.reduce((sum, t) => sum + t.duration, 0)
      )} ms`

export interface FrameStats {
  frames: number
  median: number
  p95: number
  p99: number
  max: number
  over50: number
  over16: number
}

export function frameStats(frames: number[]): FrameStats {
  const sorted = [...frames].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return {
    frames: frames.length,
    median: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? 0,
    over50: frames.filter((f) => f > 50).length,
    over16: frames.filter((f) => f > 16.7).length
  }
}

export const fmtMs = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(1))

export const describeFrames = (s: FrameStats): string =>
  `${s.frames} frames: median ${fmtMs(s.median)} ms, p95 ${fmtMs(s.p95)} ms, p99 ${fmtMs(s.p99)} ms, max ${fmtMs(s.max)} ms; ` +
  `${s.over16} frames > 16.7 ms, ${s.over50} frames > 50 ms`

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}

export interface LoadProfile {
  /** Milliseconds of main-thread samples from navigation to the mark, by what ran. */
  total: number
  byScript: Array<{ name: string; ms: number }>
  byFunction: Array<{ name: string; ms: number }>
}

/**
 * A CPU profile (Chromium's sampling profiler over CDP, 100 µs interval) of one cold load, from
 * navigation until `ready` resolves in the page: where the main thread's time before the interactive
 * paint goes, by script file and by function (self time). Takes a fresh context (empty cache).
 * `ready` is called before the navigation (to install what it waits for); the function it gives
 * resolves at the mark.
 */
export async function profileColdLoad(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<() => Promise<void>>
): Promise<LoadProfile> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  const marked = await ready(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
  await page.goto(url)
  await marked()
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }
  }
  await context.close()
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const byScript = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000
    const frame = nodes.get(id)!.callFrame
    if (frame.functionName === '(idle)' || frame.functionName === '(program)' || frame.functionName === '(root)') {
      byScript.set(frame.functionName, (byScript.get(frame.functionName) ?? 0) + ms)
      return
    }
    total += ms
    const script = frame.url ? frame.url.split('/').pop()! : frame.functionName || '(native)'
    byScript.set(script, (byScript.get(script) ?? 0) + ms)
    const name = `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms)
  })
  const sorted = (map: Map<string, number>) => [...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms)
  return { total, byScript: sorted(byScript), byFunction: sorted(byFunction) }
}

/**
 * The categories of a Chromium trace that lay out a load: fetches, script compile and run (on and
 * off the main thread), tasks, style, layout, paint, WebSocket handshake and frames, and V8's samples.
 */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'disabled-by-default-v8.cpu_profiler',
  'loading',
  'blink.user_timing',
  'toplevel',
  'netlog',
  'disabled-by-default-netlog'
]

/**
 * A Chromium trace (CDP Tracing) of one cold load, from navigation until `ready` resolves, written
 * to `file` as JSON (open it in Perfetto or the DevTools Performance panel). Tracing slows the page
 * down: read it for the order and the shape of the work, not for its times.
 */
export async function traceColdLoad(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<() => Promise<void>>,
  file: string
): Promise<void> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const marked = await ready(page)
  await browser.startTracing(page, { categories: TRACE_CATEGORIES })
  await page.goto(url)
  await marked()
  writeFileSync(file, await browser.stopTracing())
  await context.close()
}
