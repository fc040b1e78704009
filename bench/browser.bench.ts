import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { chromium } from 'playwright-core'
import { it } from 'vitest'
import { createBrowserSessions } from '../src/main/core/browser/browser-sessions'
import { findChromium } from '../src/main/core/browser/find-chromium'
import { createBrowserActionExecutor } from '../src/main/core/tools/browser-action'
import type { ToolContext, ToolOutput } from '../src/main/core/ports/tool-types'
import { browserActionTool } from '../src/shared/tools/browser-action'

/**
 * browser_action as the model calls it, beside the same Playwright calls made bare, same run, same
 * Chromium, interleaved: launch (browser + page + navigation to a loopback page + screenshot),
 * click + screenshot, screenshot alone, close. Modus's actions add the navigation guard (a route and
 * a DevTools interception per page), the console/error collection, and after an input a 300 ms
 * settle so a navigation it started shows in the screenshot.
 */
const LAUNCHES = Number(process.env.MODUS_BENCH_RUNS ?? 8)
const ACTIONS = 30

const PAGE = `<!doctype html><html><body style="margin:0">
<button style="position:absolute;left:0;top:0;width:200px;height:100px" onclick="console.log('clicked ' + Date.now())">Go</button>
<ul>${Array.from({ length: 60 }, (_, i) => `<li>Row ${i} with some text to paint</li>`).join('')}</ul>
</body></html>`

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return `median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (n=${samples.length})`
}
const timed = async (samples: number[], work: () => Promise<unknown>) => {
  const start = performance.now()
  await work()
  samples.push(performance.now() - start)
}

it('browser_action beside bare Playwright: launch, click + screenshot, screenshot, close', async () => {
  const found = await findChromium()
  if (found.path === null) {
    console.log(`browser bench skipped: ${found.advice}`)
    return
  }
  const lookup = found
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  const args = ['--no-sandbox']
  const viewport = { width: 900, height: 600 }

  const sessions = createBrowserSessions({ args, findBrowser: async () => lookup })
  const executor = createBrowserActionExecutor(sessions)
  const ctx: ToolContext = {
    taskId: 'bench',
    signal: new AbortController().signal,
    modelSupportsImages: true,
    checkPage: async () => ({ allowed: true, reason: 'bench' })
  }
  const call = async (input: unknown): Promise<ToolOutput> => {
    const output = await executor.execute(browserActionTool.params.parse(input), ctx)
    if (output.isError) throw new Error(JSON.stringify(output.content[0]))
    return output
  }

  const times = {
    bareLaunch: [] as number[],
    modusLaunch: [] as number[],
    bareClick: [] as number[],
    modusClick: [] as number[],
    bareShot: [] as number[],
    modusShot: [] as number[],
    bareClose: [] as number[],
    modusClose: [] as number[]
  }
  let shotBytes = 0
  try {
    for (let run = 0; run < LAUNCHES; run++) {
      // Bare: the calls browser_action makes, without its guard, logs or settle.
      let browser = undefined as Awaited<ReturnType<typeof chromium.launch>> | undefined
      let page = undefined as Awaited<ReturnType<NonNullable<typeof browser>['newPage']>> | undefined
      await timed(times.bareLaunch, async () => {
        browser = await chromium.launch({ executablePath: lookup.path, headless: true, args })
        page = await browser.newPage({ viewport })
        await page.goto(url, { waitUntil: 'load' })
        await page.screenshot({ type: 'png' })
      })
      await timed(times.modusLaunch, () => call({ action: 'launch', url }))
      // Actions on the first two launches only: enough samples, less time.
      if (run < 2) {
        for (let i = 0; i < ACTIONS / 2; i++) {
          await timed(times.bareClick, async () => {
            await page!.mouse.click(100, 50)
            await page!.screenshot({ type: 'png' })
          })
          await timed(times.modusClick, () => call({ action: 'click', coordinate: '100,50' }))
          await timed(times.bareShot, () => page!.screenshot({ type: 'png' }))
          await timed(times.modusShot, async () => {
            const output = await call({ action: 'screenshot' })
            const image = output.content.find((block) => block.type === 'image')
            shotBytes = image?.type === 'image' ? Buffer.from(image.dataBase64, 'base64').length : 0
          })
        }
      }
      await timed(times.bareClose, () => browser!.close())
      await timed(times.modusClose, () => call({ action: 'close' }))
    }
  } finally {
    await sessions.dispose()
    await new Promise((resolve) => server.close(resolve))
  }

  console.log(
    `browser_action on ${lookup.path} (${lookup.source}), viewport 900x600, screenshot ${Math.round(shotBytes / 1024)} kB PNG:`
  )
  console.log(`  launch (browser + page + goto + screenshot)  bare ${summary(times.bareLaunch)}`)
  console.log(`                                               Modus ${summary(times.modusLaunch)}`)
  console.log(`  click + screenshot                           bare ${summary(times.bareClick)}`)
  console.log(
    `                                               Modus ${summary(times.modusClick)}  (includes the 300 ms settle)`
  )
  console.log(`  screenshot                                   bare ${summary(times.bareShot)}`)
  console.log(`                                               Modus ${summary(times.modusShot)}`)
  console.log(`  close                                        bare ${summary(times.bareClose)}`)
  console.log(`                                               Modus ${summary(times.modusClose)}`)
})
