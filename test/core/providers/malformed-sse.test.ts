import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createProvider } from '../../../src/main/core/providers/create-provider'
import { run } from './collect'

// A server (or a proxy in between) that sends a server-sent event whose data is not JSON. The SDKs
// print the raw message and chunk to stderr before they throw; Modus says it once, in words.

let server: Server | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await new Promise((done) => (server ? server.close(done) : done(undefined)))
  server = undefined
})

async function serveBrokenStream(body: string): Promise<string> {
  server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(body)
    })
  })
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const request = {
  model: 'm',
  system: 'S',
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
  tools: []
}

describe('a malformed server-sent event', () => {
  it.each([
    [
      'anthropic',
      'event: message_start\ndata: {"type":"message_start","message":{"id":"x","type":"message","role":"assistant","content":[],"model":"m","usage":{"input_tokens":1,"output_tokens":0}}}\n\nevent: content_block_delta\ndata: {oops not json\n\n',
      'Anthropic'
    ],
    ['openai', 'data: {oops not json\n\n', 'OpenAI']
  ] as const)('%s: one error in words, and the SDK prints nothing raw to stderr', async (kind, body, label) => {
    const baseUrl = await serveBrokenStream(body)
    const printed = vi.spyOn(console, 'error')
    const provider = createProvider({
      kind,
      baseUrl: kind === 'openai' ? `${baseUrl}/v1` : baseUrl,
      apiKey: 'k',
      model: 'm'
    })
    const collected = await run(provider, request)
    expect(collected.error?.message).toBe(
      `${label} sent a streamed message that is not valid JSON (${kind === 'openai' ? `${baseUrl}/v1` : baseUrl}); the answer stopped there. A proxy or gateway in between may be rewriting the stream.`
    )
    expect(printed.mock.calls.map((args) => String(args[0]))).toEqual([])
  })
})
