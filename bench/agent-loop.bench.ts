import Anthropic from '@anthropic-ai/sdk'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { it } from 'vitest'
import type { RecordedRequest, TurnResult } from '../test/support/fake-provider'
import { builderMode, createHarness } from '../test/core/agent/support/harness'

/**
 * Loop overhead per tool round trip (issue 5; perf-anchors §5): a task of 1,000 read_file turns
 * against a zero-latency fake model, beside the bare @anthropic-ai/sdk round trip measured in the
 * same run — once with a one-message request, once replaying the loop's own request bodies (the
 * history grows every turn, so the bare SDK pays for that size too). Also: peak memory, log size.
 */
const TURNS = Number(process.env.AGENT_LOOP_TURNS ?? 1_000)
const FILES = 10
const BARE_REQUESTS = 1_000
const REPLAY_POINTS = [1, 250, 500, 750, 999]
const REPLAY_REPEATS = 30

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const ms = (value: number) => `${value.toFixed(2)} ms`

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _
}

it('agent loop: 1,000 read_file turns vs the bare SDK round trip', async () => {
  const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`f${i}.txt`, `file ${i}\n`]))
  const sampledBodies = new Map<number, unknown>()
  let served = 0
  const readTurn = (request: RecordedRequest): TurnResult => {
    const index = served++
    if (REPLAY_POINTS.includes(index)) sampledBodies.set(index, request.body)
    harnessRef.fake?.requests.splice(0) // the fake keeps every request; the bench must not measure that
    if (index === TURNS) return { toolCalls: [{ name: 'attempt_completion', input: { result: 'read them all' } }] }
    return {
      toolCalls: [{ name: 'read_file', input: { path: `f${index % FILES}.txt` } }],
      usage: { inputTokens: 100, outputTokens: 20 }
    }
  }
  const harnessRef: { fake?: { requests: RecordedRequest[] } } = {}
  const harness = await createHarness({ modes: [builderMode], files })
  harnessRef.fake = harness.fake
  const { services } = harness
  const url = harness.fake.anthropicBaseUrl

  // Bare SDK, constant one-message request answered with the same kind of tool_use turn.
  const sdk = new Anthropic({ apiKey: 'bench', baseURL: url, maxRetries: 0 })
  harness.fake.enqueue(
    ...Array.from({ length: BARE_REQUESTS }, () => ({ toolCalls: [{ name: 'read_file', input: { path: 'f0.txt' } }] }))
  )
  const bare: number[] = []
  for (let i = 0; i < BARE_REQUESTS; i++) {
    const start = performance.now()
    await drain(
      await sdk.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true
      })
    )
    bare.push(performance.now() - start)
    harness.fake.requests.splice(0)
  }

  // The loop: its turns are queued only now, after the bare SDK's.
  harness.fake.enqueue(...Array.from({ length: TURNS + 1 }, () => readTurn))
  const memoryBefore = process.memoryUsage()
  let peakRss = memoryBefore.rss
  let peakHeap = memoryBefore.heapUsed
  const turnStarts: number[] = []
  const turnEnds: number[] = []
  const unsubscribe = services.tasks.subscribe((_id, event) => {
    if (event.type === 'assistant-end') turnEnds.push(performance.now())
    if (event.type === 'assistant-start') {
      turnStarts.push(performance.now())
      const memory = process.memoryUsage()
      peakRss = Math.max(peakRss, memory.rss)
      peakHeap = Math.max(peakHeap, memory.heapUsed)
    }
  })
  const started = performance.now()
  const task = await services.tasks.start({
    text: 'Read the files one by one.',
    mode: 'builder',
    workspace: harness.workspace
  })
  const outcome = await services.tasks.whenSettled(task.id)
  const total = performance.now() - started
  unsubscribe()
  if (outcome?.status !== 'completed')
    throw new Error(`the task ended ${outcome?.status}: ${harness.fake.failures.join('; ')}`)
  const perTurn = turnStarts.slice(1).map((t, i) => t - turnStarts[i])
  // Streaming (request sent → answer assembled) vs between turns (tool run, log, policy, next request built).
  const streaming = turnEnds.map((end, i) => end - turnStarts[i])
  const between = turnStarts.slice(1).map((start, i) => start - turnEnds[i])
  const logBytes = statSync(join(harness.dataDir, 'tasks', task.id, 'log.jsonl')).size

  // Bare SDK replaying the loop's own requests at a few history sizes.
  const replay: Array<{ index: number; bytes: number; median: number }> = []
  for (const [index, body] of [...sampledBodies.entries()].sort((a, b) => a[0] - b[0])) {
    harness.fake.enqueue(
      ...Array.from({ length: REPLAY_REPEATS }, () => ({
        toolCalls: [{ name: 'read_file', input: { path: 'f0.txt' } }]
      }))
    )
    const times: number[] = []
    for (let i = 0; i < REPLAY_REPEATS; i++) {
      const start = performance.now()
      await drain(
        (await sdk.messages.create({ ...(body as object), stream: true } as never)) as unknown as AsyncIterable<unknown>
      )
      times.push(performance.now() - start)
      harness.fake.requests.splice(0)
    }
    replay.push({ index, bytes: JSON.stringify(body).length, median: median(times) })
  }
  await harness.close()

  const loopMedian = median(perTurn)
  console.log(`agent loop, ${TURNS} read_file turns (zero-latency fake model, in-process server):`)
  console.log(`  first turn (task start → first answer started): ${ms(turnStarts[0] - started)}`)
  console.log(
    `  per turn: median ${ms(loopMedian)}, p95 ${ms(percentile(perTurn, 0.95))}, total ${(total / 1000).toFixed(2)} s`
  )
  console.log(
    `    of which streaming (provider + SDK + server): median ${ms(median(streaming))}; between turns (tool, policy, log, next request): median ${ms(median(between))}`
  )
  console.log(
    `  bare SDK round trip, one-message request: median ${ms(median(bare))}, p95 ${ms(percentile(bare, 0.95))}`
  )
  for (const point of replay) {
    console.log(
      `  bare SDK replaying the loop's request #${point.index} (${(point.bytes / 1024).toFixed(0)} KB body): median ${ms(point.median)}`
    )
  }
  console.log(
    `  loop's own work between turns (tool run, validation, policy, approvals bookkeeping, log, next request built): median ${ms(median(between))} (target: overhead ≤ 5 ms)`
  )
  console.log(
    `  per-turn total minus the bare one-message round trip: ${ms(loopMedian - median(bare))} (includes sending the growing history, which the bare SDK pays too at that size)`
  )
  console.log(
    `  peak memory: rss ${mb(peakRss)} (+${mb(peakRss - memoryBefore.rss)}), heap ${mb(peakHeap)} (+${mb(peakHeap - memoryBefore.heapUsed)})`
  )
  console.log(`  task log: ${(logBytes / 1024).toFixed(0)} KB, ${(logBytes / TURNS).toFixed(0)} bytes per turn`)
}, 600_000)
