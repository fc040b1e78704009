import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { TaskRecord } from '../src/main/core/store/task-records'
import {
  describeFrames,
  describeLongTasks,
  fmtMs,
  frameStats,
  openWorkspaceAndProvider,
  startFrameRecorder,
  startUiBench,
  stopFrameRecorderWithTimes,
  type UiBench
} from './ui-harness'

// A task with 5,000 messages (2,500 user, 2,500 assistant with Markdown and code) written to the
// data dir in the task log format the core writes, then opened through History → Open, the path a
// user takes. Measures: open-to-painted, DOM size, heap, and frame times while scrolling through it.

const MESSAGES = 5_000
const TASK_ID = 'bench-5000'
const LAST_TEXT = `Answer number ${MESSAGES / 2}: done.`

function assistantText(i: number): string {
  if (i === MESSAGES / 2) return LAST_TEXT
  switch (i % 4) {
    case 0:
      return `Here is the change for step ${i}:\n\n\`\`\`ts\nexport function step${i}(input: number): number {\n  return input * ${i}\n}\n\`\`\`\n\nIt keeps the **public API** unchanged.`
    case 1:
      return `Step ${i} needs three things:\n\n- read \`src/module${i}.ts\`\n- update the tests\n- run \`npm test\``
    case 2:
      return `Done with step ${i}. ${'The function now validates its input before use. '.repeat(3)}`
    default:
      return `OK (${i}).`
  }
}

function writeBigTask(dataDir: string, workspace: string): void {
  const dir = join(dataDir, 'tasks', TASK_ID)
  mkdirSync(dir, { recursive: true })
  const start = Date.now() - MESSAGES * 1000
  const records: TaskRecord[] = [
    { r: 'meta', meta: { id: TASK_ID, title: 'Five thousand messages', mode: 'code', workspace, createdAt: start } },
    { r: 'event', event: { type: 'status', at: start, status: 'running' } }
  ]
  for (let i = 1; i <= MESSAGES / 2; i++) {
    const at = start + i * 1000
    const messageId = `m${i}`
    records.push(
      { r: 'event', event: { type: 'user-message', at, text: `Please do step ${i} of the plan.` } },
      { r: 'event', event: { type: 'assistant-start', at, messageId, model: 'claude-sonnet-4-5' } },
      { r: 'event', event: { type: 'text-delta', messageId, text: assistantText(i) } },
      { r: 'event', event: { type: 'assistant-end', at: at + 500, messageId, stopReason: 'end_turn' } }
    )
  }
  records.push({ r: 'event', event: { type: 'status', at: Date.now(), status: 'idle' } })
  writeFileSync(
    join(dir, 'log.jsonl'),
    records.map((record) => JSON.stringify(TaskRecord.parse(record))).join('\n') + '\n'
  )
}

let bench: UiBench

beforeAll(async () => {
  bench = await startUiBench(async (dataDir, workspace) => writeBigTask(dataDir, workspace))
}, 60_000)
afterAll(async () => bench?.close())

describe('chat with 5,000 messages', () => {
  it('opens from History, then scrolls end to end', async () => {
    const page = await bench.browser.newPage({ viewport: { width: 1280, height: 800 } })
    await openWorkspaceAndProvider(page, bench)
    // Diagnostic knob: try a stylesheet fix without rebuilding (e.g. '.chat-items > div { flex-shrink: 0 }').
    if (process.env.MODUS_BENCH_CSS) await page.addStyleTag({ content: process.env.MODUS_BENCH_CSS })
    await page.getByRole('button', { name: 'History' }).click()
    const row = page.getByRole('listitem', { name: 'Five thousand messages' })
    await row.waitFor()

    // Time from the click to the first frame that shows the task's messages.
    await page.evaluate((count) => {
      const w = window as unknown as { __shown?: number; __clicked?: number }
      // The chat's windowed list says how many items it holds (aria-setsize) on every row it renders.
      const observer = new MutationObserver(() => {
        if (Number(document.querySelector('.virtual-row')?.getAttribute('aria-setsize') ?? 0) < count) return
        observer.disconnect()
        requestAnimationFrame(() => requestAnimationFrame(() => (w.__shown = performance.now())))
      })
      observer.observe(document.body, { childList: true, subtree: true, characterData: true })
      document.addEventListener('click', () => (w.__clicked ??= performance.now()), { capture: true, once: true })
    }, MESSAGES)
    await startFrameRecorder(page)
    await row.getByRole('button', { name: /Open|Resume/ }).click()
    await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown !== undefined, null, {
      timeout: 120_000
    })
    const openRecording = await stopFrameRecorderWithTimes(page)
    const openFrames = frameStats(openRecording.frames)
    const opened = await page.evaluate(() => {
      const w = window as unknown as { __shown: number; __clicked: number }
      return w.__shown - w.__clicked
    })

    // The chat's scroller: the nearest scrollable ancestor of a rendered row.
    const dom = await page.evaluate(() => {
      let scroller = document.querySelector<HTMLElement>('.virtual-row')?.parentElement ?? null
      while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement
      scroller?.setAttribute('data-bench-scroller', '')
      const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
      return {
        found: Boolean(scroller),
        scrollHeight: scroller?.scrollHeight ?? 0,
        nodesInScroller: scroller?.querySelectorAll('*').length ?? 0,
        rows: scroller?.querySelectorAll('.virtual-row').length ?? 0,
        // What the windowed list asks for (its spacer's height) against what the scroller can reach.
        declaredHeight:
          Number.parseFloat(document.querySelector<HTMLElement>('.virtual-row')?.parentElement?.style.height ?? '') ||
          0,
        nodesInPage: document.querySelectorAll('*').length,
        heapMb: memory ? memory.usedJSHeapSize / 1e6 : Number.NaN
      }
    })

    // Jump to the end: how long until the last answer is on screen.
    const toEnd = await page.evaluate(async (text) => {
      const scroller = document.querySelector<HTMLElement>('[data-bench-scroller]')
      if (!scroller) return Number.NaN
      const started = performance.now()
      scroller.scrollTop = scroller.scrollHeight
      while (!scroller.textContent?.includes(text)) {
        if (performance.now() - started > 10_000) return Number.NaN
        await new Promise((resolve) => requestAnimationFrame(resolve))
        scroller.scrollTop = scroller.scrollHeight
      }
      await new Promise((resolve) => requestAnimationFrame(resolve))
      return performance.now() - started
    }, LAST_TEXT)

    // Scroll from the top to the bottom in steps of 1,200 px a frame, then jump around.
    await startFrameRecorder(page)
    const steps = await page.evaluate(async () => {
      const scroller = document.querySelector<HTMLElement>('[data-bench-scroller]')
      if (!scroller) return 0
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
      let steps = 0
      scroller.scrollTop = 0
      await frame()
      while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1 && steps < 5000) {
        scroller.scrollTop += 1200
        steps++
        await frame()
      }
      for (const target of [scroller.scrollHeight, 0, scroller.scrollHeight / 2, scroller.scrollHeight]) {
        scroller.scrollTop = target
        await frame()
        await frame()
      }
      return steps
    })
    const scrollRecording = await stopFrameRecorderWithTimes(page)
    const scrollFrames = frameStats(scrollRecording.frames)
    // Wheel scrolling through Chromium's input pipeline, as a user does.
    await page.locator('[data-bench-scroller]').hover()
    await startFrameRecorder(page)
    for (let i = 0; i < 150; i++) await page.mouse.wheel(0, -600)
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    const wheelRecording = await stopFrameRecorderWithTimes(page)
    const wheelFrames = frameStats(wheelRecording.frames)

    console.log(
      `\n[ui chat 5,000 messages] ${MESSAGES} messages (${MESSAGES / 2} user, ${MESSAGES / 2} assistant with Markdown/code)`
    )
    console.log(
      `  History → Open until its messages are painted: ${fmtMs(opened)} ms (includes the task:events replay over the socket)`
    )
    console.log(
      `  jump to the end until the last answer is painted: ${Number.isNaN(toEnd) ? 'NOT REACHED within 10 s' : `${fmtMs(toEnd)} ms`}`
    )
    console.log(`  frames while opening: ${describeFrames(openFrames)}; ${describeLongTasks(openRecording.longTasks)}`)
    console.log(
      `  DOM: ${dom.rows} rows / ${dom.nodesInScroller} elements in the chat scroller (scrollHeight ${dom.scrollHeight} px), ${dom.nodesInPage} in the page; JS heap ${dom.heapMb.toFixed(1)} MB`
    )
    if (dom.declaredHeight > dom.scrollHeight * 1.5)
      console.log(
        `  WARNING: the list's spacer asks for ${Math.round(dom.declaredHeight)} px but the scroller reaches only ${dom.scrollHeight} px: ` +
          'the spacer is being shrunk (a flex container?), so most messages cannot be scrolled to'
      )
    console.log(
      `  scripted scroll, ${steps} steps of 1,200 px + 4 jumps: ${describeFrames(scrollFrames)}; ${describeLongTasks(scrollRecording.longTasks)}`
    )
    console.log(
      `  wheel scroll, 150 × 600 px: ${describeFrames(wheelFrames)}; ${describeLongTasks(wheelRecording.longTasks)}`
    )
    await page.close()
  }, 600_000)
})
