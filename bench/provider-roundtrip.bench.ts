import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { it } from 'vitest'
import { createProvider } from '../src/main/core/providers/create-provider'
import type { ModelRequest } from '../src/main/core/providers/types'
import { startFakeProvider, type ScriptedTurn } from '../test/support/fake-provider'
import { createAnthropicRenderer } from '../test/support/fake-provider/anthropic-wire'
import { createOpenAIRenderer } from '../test/support/fake-provider/openai-wire'
import { contentChunks, planTurn } from '../test/support/fake-provider/script'

/**
 * One streamed model turn over loopback: the bare SDK against Modus's provider layer, 1,000 turns
 * each, same run (perf-anchors §5: bare @anthropic-ai/sdk ≈ 1.2 ms/turn against a separate-process
 * server). Two servers: the in-process fake provider the tests use, and a separate Node process
 * replaying the same bytes (one write per event), which is how the anchor was measured.
 */
const TURNS = 1_000
const WARMUP = 50
// 14 text chunks → 20 Anthropic events (as in the anchor) and 17 OpenAI chunks + [DONE].
const TURN: ScriptedTurn = {
  text: Array.from({ length: 14 }, (_, i) => `word${i} `),
  usage: { inputTokens: 20, outputTokens: 14 }
}
const MODEL = { anthropic: 'claude-sonnet-4-6', openai: 'gpt-4o' }

function renderFrames(protocol: 'anthropic' | 'openai'): string[] {
  const plan = planTurn(TURN, { protocol, requestIndex: 0, requestModel: MODEL[protocol], requestBytes: 100 })
  const renderer =
    protocol === 'anthropic'
      ? createAnthropicRenderer(plan, 'msg_bench')
      : createOpenAIRenderer(plan, 'chatcmpl-bench', { includeUsage: true, reasoningField: 'reasoning_content' })
  return [...renderer.head(), ...contentChunks(plan).flatMap((c) => renderer.chunk(c)), ...renderer.tail()]
}

const CHILD_SERVER = `
const http = require('node:http'); const fs = require('node:fs');
const frames = { '/v1/messages': JSON.parse(fs.readFileSync(process.argv[1] + '/anthropic.json', 'utf8')), '/v1/chat/completions': JSON.parse(fs.readFileSync(process.argv[1] + '/openai.json', 'utf8')) };
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  for (const frame of frames[req.url]) res.write(frame); res.end(); }); });
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
process.on('disconnect', () => process.exit(0));
`

async function startChildServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  writeFileSync(join(dir, 'anthropic.json'), JSON.stringify(renderFrames('anthropic')))
  writeFileSync(join(dir, 'openai.json'), JSON.stringify(renderFrames('openai')))
  const child = spawn(process.execPath, ['-e', CHILD_SERVER, dir], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const port = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()))
  )
  return { url: `http://127.0.0.1:${port}`, child }
}

type Variant = { name: string; turn: () => Promise<void> }

function variantsFor(url: string): Variant[] {
  const anthropic = new Anthropic({ apiKey: 'bench', baseURL: url, maxRetries: 0 })
  const openai = new OpenAI({ apiKey: 'bench', baseURL: `${url}/v1`, maxRetries: 0 })
  const modusAnthropic = createProvider({ kind: 'anthropic', baseUrl: url, apiKey: 'bench', model: MODEL.anthropic })
  const modusOpenAI = createProvider({ kind: 'openai', baseUrl: `${url}/v1`, apiKey: 'bench', model: MODEL.openai })
  const request = (model: string): ModelRequest => ({
    model,
    system: 'bench',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: []
  })
  const drain = async (events: AsyncIterable<unknown>) => {
    for await (const _ of events) void _
  }
  return [
    {
      name: 'anthropic bare SDK (create stream + for await)',
      turn: async () =>
        drain(
          await anthropic.messages.create({
            model: MODEL.anthropic,
            max_tokens: 64,
            stream: true,
            messages: [{ role: 'user', content: 'hi' }]
          })
        )
    },
    {
      name: 'anthropic via Modus provider',
      turn: () => drain(modusAnthropic.stream(request(MODEL.anthropic), new AbortController().signal))
    },
    {
      name: 'openai bare SDK (create stream + for await)',
      turn: async () =>
        drain(
          await openai.chat.completions.create({
            model: MODEL.openai,
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: 'user', content: 'hi' }]
          })
        )
    },
    {
      name: 'openai via Modus provider',
      turn: () => drain(modusOpenAI.stream(request(MODEL.openai), new AbortController().signal))
    }
  ]
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]

/** Alternates the variants in blocks so drift (GC, JIT, CPU) hits them alike. */
async function measure(variants: Variant[]): Promise<Map<string, number[]>> {
  const samples = new Map(variants.map((v) => [v.name, [] as number[]]))
  for (const v of variants) for (let i = 0; i < WARMUP; i++) await v.turn()
  const blocks = 10
  for (let block = 0; block < blocks; block++) {
    for (const v of variants) {
      for (let i = 0; i < TURNS / blocks; i++) {
        const start = performance.now()
        await v.turn()
        samples.get(v.name)!.push(performance.now() - start)
      }
    }
  }
  return samples
}

function report(title: string, samples: Map<string, number[]>): void {
  console.log(`\n${title} — ${TURNS} turns per variant`)
  for (const [name, xs] of samples) {
    const total = xs.reduce((a, b) => a + b, 0)
    console.log(
      `  ${name.padEnd(48)} median ${median(xs).toFixed(3)} ms  p95 ${p95(xs).toFixed(3)} ms  total ${total.toFixed(0)} ms`
    )
  }
  const [aBare, aModus, oBare, oModus] = [...samples.values()].map(median)
  console.log(
    `  provider-layer overhead (median): anthropic ${(aModus - aBare).toFixed(3)} ms, openai ${(oModus - oBare).toFixed(3)} ms`
  )
}

it('provider round trip: bare SDK vs Modus provider layer', async () => {
  const fake = await startFakeProvider({ name: 'bench' })
  const variants = variantsFor(fake.url)
  // Enough scripted turns for every request of the in-process run.
  for (let i = 0; i < (TURNS + WARMUP) * variants.length; i++) fake.enqueue(TURN)
  report('in-process fake provider (test/support/fake-provider)', await measure(variants))
  await fake.close()

  const dir = mkdtempSync(join(tmpdir(), 'modus-bench-'))
  const { url, child } = await startChildServer(dir)
  try {
    report(
      'separate-process server, same bytes, one write per event (anchor setup, ≈1.2 ms bare SDK)',
      await measure(variantsFor(url))
    )
  } finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
