// A hand-written MCP stdio server that misbehaves on purpose: oversized images and text, malformed
// results, a crash mid-call and a call that never answers. It writes every `notifications/cancelled`
// it receives to the file named by MISBEHAVING_LOG, so a test can see a cancellation arrive.
import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const MB = 1024 * 1024
const base64 = (chars) => 'A'.repeat(chars)
const image = (chars) => ({ type: 'image', mimeType: 'image/png', data: base64(chars) })

const RESULTS = {
  'huge-image': () => ({ content: [{ type: 'text', text: 'one huge image' }, image(6 * MB)] }),
  // Under the SDK's 10 MB stdio message limit, over Modus's 8 MB of images per result.
  'several-images': () => ({ content: [image(3 * MB), image(3 * MB), image(3 * MB), image(1000)] }),
  'huge-text': () => ({ content: [{ type: 'text', text: 'x'.repeat(5 * MB) }] }),
  malformed: () => ({
    content: [
      { type: 'text' },
      42,
      { type: 'hologram', beam: 1 },
      { type: 'image', mimeType: 'image/png', data: '%%%' }
    ]
  }),
  crash: () => process.exit(3),
  hang: () => undefined
}

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
const tools = Object.keys(RESULTS).map((name) => ({
  name,
  description: `misbehaves: ${name}`,
  inputSchema: { type: 'object', properties: {} }
}))

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'notifications/cancelled') {
    if (process.env.MISBEHAVING_LOG) appendFileSync(process.env.MISBEHAVING_LOG, `${JSON.stringify(message.params)}\n`)
    return
  }
  if (message.id === undefined) return
  if (message.method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'misbehaving', version: '1.0.0' }
      }
    })
  } else if (message.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: message.id, result: { tools } })
  } else if (message.method === 'tools/call') {
    const result = RESULTS[message.params.name]?.()
    if (result) send({ jsonrpc: '2.0', id: message.id, result })
  } else {
    send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } })
  }
})
