import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createEmbedder, EmbeddingsError } from '../../../src/main/core/code-index/embedder'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

/** An embeddings endpoint on loopback; its base URL and how many connections it accepted. */
async function endpoint(answer: (body: { input: string[] }, res: ServerResponse, req: IncomingMessage) => void) {
  let connections = 0
  server = createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => answer(JSON.parse(Buffer.concat(parts).toString('utf8')) as { input: string[] }, res, req))
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { baseUrl: `http://127.0.0.1:${port}/v1/`, connections: () => connections }
}

const vectors = (input: string[]) =>
  JSON.stringify({ data: input.map((text, index) => ({ index, embedding: [text.length, 1] })) })

describe('embeddings endpoint client', () => {
  it('sends the model, inputs and key, and keeps one connection open across requests', async () => {
    const seen: Array<{ url?: string; auth?: string; model?: unknown }> = []
    const fake = await endpoint((body, res, req) => {
      seen.push({ url: req.url, auth: req.headers.authorization, model: (body as { model?: unknown }).model })
      res.writeHead(200, { 'content-type': 'application/json' }).end(vectors(body.input))
    })
    const embedder = createEmbedder({ baseUrl: fake.baseUrl, model: 'm1', apiKey: 'secret' })
    for (const query of ['one', 'three', 'seventeen'])
      expect(await embedder.embed([query, 'ab'])).toEqual([
        [query.length, 1],
        [2, 1]
      ])
    expect(seen).toEqual(Array(3).fill({ url: '/v1/embeddings', auth: 'Bearer secret', model: 'm1' }))
    expect(fake.connections()).toBe(1)
  })

  it('says what the endpoint answered when it refuses, and that it cannot be reached when it is gone', async () => {
    const fake = await endpoint((_, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key' } }))
    )
    const embedder = createEmbedder({ baseUrl: fake.baseUrl, model: 'm1' })
    await expect(embedder.embed(['x'])).rejects.toThrow(
      new EmbeddingsError('The embeddings endpoint answered 401: bad key')
    )
    server!.closeAllConnections()
    await new Promise((resolve) => server!.close(resolve))
    server = undefined
    const gone = embedder.embed(['x'])
    await expect(gone).rejects.toBeInstanceOf(EmbeddingsError)
    await expect(gone).rejects.toThrow(/could not be reached/)
  })

  it('rejects an answer that is not an embeddings list', async () => {
    const fake = await endpoint((_, res) => res.writeHead(200).end('<html>proxy login</html>'))
    await expect(createEmbedder({ baseUrl: fake.baseUrl, model: 'm1' }).embed(['x'])).rejects.toThrow(
      /sent an answer that is not an embeddings list/
    )
  })

  it('asks for base64 vectors and reads them as the float32s the endpoint sent', async () => {
    const formats: unknown[] = []
    const fake = await endpoint((body, res) => {
      formats.push((body as { encoding_format?: unknown }).encoding_format)
      const data = body.input.map((text, index) => ({
        index,
        embedding: Buffer.from(Float32Array.from([text.length, 0.1, -1 / 3]).buffer).toString('base64')
      }))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }))
    })
    const embedder = createEmbedder({ baseUrl: fake.baseUrl, model: 'm1' })
    expect(await embedder.embed(['abc', 'de'])).toEqual([
      [3, Math.fround(0.1), Math.fround(-1 / 3)],
      [2, Math.fround(0.1), Math.fround(-1 / 3)]
    ])
    expect(formats).toEqual(['base64'])
  })

  it('asks for floats from then on when the endpoint refuses base64, and reads floats sent for a base64 request', async () => {
    const formats: unknown[] = []
    const fake = await endpoint((body, res) => {
      const format = (body as { encoding_format?: unknown }).encoding_format
      formats.push(format)
      if (format === 'base64')
        res
          .writeHead(422, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: "encoding_format: input should be 'float'" } }))
      else res.writeHead(200, { 'content-type': 'application/json' }).end(vectors(body.input))
    })
    const embedder = createEmbedder({ baseUrl: fake.baseUrl, model: 'm1' })
    expect(await embedder.embed(['one'])).toEqual([[3, 1]])
    expect(await embedder.embed(['three'])).toEqual([[5, 1]])
    expect(formats).toEqual(['base64', 'float', 'float'])
  })

  it('says what the endpoint answered when it refuses floats too, and asks for base64 again next time', async () => {
    const formats: unknown[] = []
    const fake = await endpoint((body, res) => {
      formats.push((body as { encoding_format?: unknown }).encoding_format)
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'input too long' } }))
    })
    const embedder = createEmbedder({ baseUrl: fake.baseUrl, model: 'm1' })
    await expect(embedder.embed(['x'])).rejects.toThrow(
      new EmbeddingsError('The embeddings endpoint answered 400: input too long')
    )
    await expect(embedder.embed(['x'])).rejects.toThrow(/input too long/)
    expect(formats).toEqual(['base64', 'float', 'base64', 'float'])
  })

  it('rejects a base64 vector that is not whole float32s', async () => {
    const fake = await endpoint((_, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: [{ index: 0, embedding: Buffer.from([1, 2, 3]).toString('base64') }] }))
    )
    await expect(createEmbedder({ baseUrl: fake.baseUrl, model: 'm1' }).embed(['x'])).rejects.toThrow(
      /sent a vector that is not float32s/
    )
  })

  it('stops waiting when the caller aborts, with the abort and not an endpoint error', async () => {
    await endpoint(() => undefined) // never answers
    const controller = new AbortController()
    const pending = createEmbedder({
      baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`,
      model: 'm1'
    }).embed(['x'], controller.signal)
    setTimeout(() => controller.abort(new Error('task cancelled')), 50)
    await expect(pending).rejects.toThrow('task cancelled')
  })
})
