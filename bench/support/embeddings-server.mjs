// An OpenAI-shaped POST /v1/embeddings on loopback, run as its own process by bench/code-index: the
// index's build is measured in the bench's process, so the endpoint's own work (hashing every word
// of every chunk, JSON in and out) must not be charged to it, as a real endpoint's would not be.
// Vectors are deterministic (each word adds to a hashed bucket), so texts sharing words point the same way.
import { createServer } from 'node:http'

const DIMENSION = 64

/** FNV-1a of a word: a cheap, stable bucket (the test fake's md5 per word cost more than the index). */
function bucket(word) {
  let hash = 0x811c9dc5
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

function embedding(text) {
  const vector = new Array(DIMENSION).fill(0)
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = bucket(word)
    vector[h % DIMENSION] += h & 0x100 ? 1 : -1
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0)) || 1
  return vector.map((v) => v / norm)
}

const server = createServer((req, res) => {
  const parts = []
  req.on('data', (part) => parts.push(part))
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404).end()
      return
    }
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'))
    const texts = typeof body.input === 'string' ? [body.input] : body.input
    // As OpenAI's API: floats, or little-endian float32s in base64 when asked for them.
    const encode =
      body.encoding_format === 'base64'
        ? (vector) => Buffer.from(Float32Array.from(vector).buffer).toString('base64')
        : (vector) => vector
    const data = texts.map((text, index) => ({ object: 'embedding', index, embedding: encode(embedding(text)) }))
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } }))
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`)
})
process.on('disconnect', () => process.exit(0))
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
