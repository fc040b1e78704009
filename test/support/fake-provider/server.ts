import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { anthropicErrorBody, createAnthropicRenderer } from './anthropic-wire'
import { createFixtureLibrary, type FixtureEntry } from './fixtures'
import { createOpenAIRenderer, openaiErrorBody } from './openai-wire'
import {
  contentChunks,
  isFixtureTurn,
  planTurn,
  type FakeHttpError,
  type FakeProtocol,
  type FakeTurn,
  type FixtureTurn,
  type RecordedRequest,
  type ScriptedTurn
} from './script'
import { answerModels, DEFAULT_FAKE_MODELS, type FakeModel } from './models'
import { answerEmbeddings, defaultEmbeddingsControl, type FakeEmbeddingsControl } from './embeddings'

export interface FakeProviderOptions {
  /** Names the test in error messages (e.g. "script exhausted"). */
  name?: string
  /** Turns to serve, one per model request, in order. More can be added with `enqueue`. */
  turns?: FakeTurn[]
  /** Where the recorded fixtures live; default ../shared/fixtures/llm. */
  fixturesDir?: string
  /** When set, requests carrying another key get a 401 (without consuming a turn). */
  requireApiKey?: string
  /** What `GET /v1/models` lists (both SDKs' shapes); default `DEFAULT_FAKE_MODELS`. */
  models?: Array<string | FakeModel>
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Pass as `baseURL` to `@anthropic-ai/sdk` (it appends `/v1/messages`). */
  anthropicBaseUrl: string
  /** Pass as `baseURL` to `openai` (`…/v1`; it appends `/chat/completions`). */
  openaiBaseUrl: string
  /** Every request received, in order (model requests and others). */
  requests: RecordedRequest[]
  /** `POST /v1/embeddings`: deterministic vectors; set `failAfter` to make it fail mid-way. */
  embeddings: FakeEmbeddingsControl
  /** Problems the server hit (exhausted script, a turn function that threw); tests should expect none. */
  failures: string[]
  enqueue(...turns: FakeTurn[]): void
  /** Turns not yet consumed. */
  pendingTurns(): number
  close(): Promise<void>
}

// Exact paths, so a client with a wrong base URL gets a 404 like a real server would give.
const MODEL_PATHS: Array<[RegExp, FakeProtocol]> = [
  [/^\/v1\/messages$/, 'anthropic'],
  [/^\/v1\/chat\/completions$/, 'openai']
]

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function presentedKey(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')
  const apiKey = req.headers['x-api-key']
  return bearer?.[1] ?? (typeof apiKey === 'string' ? apiKey : undefined)
}

/** What `GET /v1/models` lists by default: the models the tests name (Anthropic's with their dates). */
export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const testName = options.name ?? 'unnamed test'
  const embeddings = defaultEmbeddingsControl()
  const queue: FakeTurn[] = [...(options.turns ?? [])]
  const requests: RecordedRequest[] = []
  const failures: string[] = []
  const fixtures = createFixtureLibrary(options.fixturesDir)
  let consumed = 0

  const requestIdHeader = (protocol: FakeProtocol, id: string): Record<string, string> =>
    protocol === 'anthropic' ? { 'request-id': id } : { 'x-request-id': id }

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(JSON.stringify(body))
  }

  /** A server-side failure: a 500 the client must not retry, with a message naming the test. */
  const failLoudly = (res: ServerResponse, protocol: FakeProtocol, message: string): void => {
    failures.push(message)
    const error: FakeHttpError = { status: 500, type: protocol === 'anthropic' ? 'api_error' : 'server_error', message }
    const body = protocol === 'anthropic' ? anthropicErrorBody(error, 'req_fake_failure') : openaiErrorBody(error)
    sendJson(res, 500, body, { 'x-should-retry': 'false' })
  }

  const sendHttpError = (
    res: ServerResponse,
    protocol: FakeProtocol,
    error: FakeHttpError,
    requestId: string
  ): void => {
    const headers: Record<string, string> = requestIdHeader(protocol, requestId)
    if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter)
    if (error.retryAfterMs !== undefined) headers['retry-after-ms'] = String(error.retryAfterMs)
    const body = protocol === 'anthropic' ? anthropicErrorBody(error, requestId) : openaiErrorBody(error)
    sendJson(res, error.status, body, headers)
  }

  const replayFixture = async (res: ServerResponse, protocol: FakeProtocol, turn: FixtureTurn): Promise<void> => {
    let entry: FixtureEntry
    try {
      entry = fixtures.get(turn.fixture)
    } catch (error) {
      return failLoudly(res, protocol, `fake provider "${testName}": ${(error as Error).message}`)
    }
    if (entry.provider !== protocol) {
      return failLoudly(
        res,
        protocol,
        `fake provider "${testName}": fixture ${entry.name} is ${entry.provider}, but the request came to the ${protocol} endpoint`
      )
    }
    const body = fixtures.body(entry)
    res.writeHead(entry.status, entry.headers)
    if (turn.splitBytes) {
      for (let offset = 0; offset < body.length; offset += turn.splitBytes) {
        if (res.destroyed) return
        res.write(body.subarray(offset, offset + turn.splitBytes))
        await new Promise((resolve) => setImmediate(resolve))
      }
      return void res.end()
    }
    if (!turn.chunkDelayMs) return void res.end(body)
    for (const event of body.toString('utf8').split(/(?<=\n\n)/)) {
      if (res.destroyed) return
      await sleep(turn.chunkDelayMs)
      res.write(event)
    }
    res.end()
  }

  const streamScripted = async (
    res: ServerResponse,
    request: RecordedRequest,
    protocol: FakeProtocol,
    turn: ScriptedTurn
  ): Promise<void> => {
    const requestId = `req_fake_${request.index}`
    if (turn.dropConnection) return void res.socket?.destroy()
    if (turn.error) return sendHttpError(res, protocol, turn.error, requestId)
    const plan = planTurn(turn, {
      protocol,
      requestIndex: request.index,
      requestModel: typeof request.body?.model === 'string' ? request.body.model : 'fake-model',
      requestBytes: request.rawBody.length
    })
    const renderer =
      protocol === 'anthropic'
        ? createAnthropicRenderer(plan, `msg_fake_${request.index}`)
        : createOpenAIRenderer(plan, `chatcmpl-fake${request.index}`, {
            includeUsage: request.body?.stream_options?.include_usage === true,
            reasoningField: turn.openaiReasoningField ?? 'reasoning_content'
          })
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...requestIdHeader(protocol, requestId)
    })
    const write = (frames: string[]): void => {
      for (const frame of frames) res.write(frame)
    }
    write(renderer.head())
    const chunks = contentChunks(plan)
    for (let sent = 0; sent <= chunks.length; sent++) {
      if (plan.hangAfterChunks !== null && sent === plan.hangAfterChunks) return // left open until the client aborts or close()
      // The chunks already written reach the client first; then the socket goes without the stream's end.
      if (plan.cutAfterChunks !== null && sent === plan.cutAfterChunks)
        return void res.socket?.end(() => res.socket?.destroy())
      if (plan.midStreamError && sent === plan.errorAfterChunks) {
        write(renderer.midStreamError(plan.midStreamError))
        return void res.end()
      }
      if (sent === chunks.length) break
      if (plan.chunkDelayMs > 0) await sleep(plan.chunkDelayMs)
      if (res.destroyed) return
      write(renderer.chunk(chunks[sent]))
    }
    write(renderer.tail())
    res.end()
  }

  const serveModelRequest = async (
    res: ServerResponse,
    request: RecordedRequest,
    protocol: FakeProtocol
  ): Promise<void> => {
    if (options.requireApiKey !== undefined && presentedKey(res.req) !== options.requireApiKey) {
      const error: FakeHttpError = { status: 401, message: 'fake provider: invalid API key' }
      return sendHttpError(res, protocol, error, `req_fake_${request.index}`)
    }
    const next = queue.shift()
    if (next === undefined) {
      return failLoudly(
        res,
        protocol,
        `fake provider "${testName}": script exhausted — no turn left for request #${request.index + 1} (${request.method} ${request.path}); ${consumed} turn(s) were served`
      )
    }
    consumed += 1
    let turn
    try {
      turn = typeof next === 'function' ? await next(request) : next
    } catch (error) {
      return failLoudly(
        res,
        protocol,
        `fake provider "${testName}": turn function for request #${request.index + 1} threw: ${(error as Error).message}`
      )
    }
    if (isFixtureTurn(turn)) return replayFixture(res, protocol, turn)
    return streamScripted(res, request, protocol, turn)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req)
    const path = (req.url ?? '/').split('?')[0]
    const protocol = req.method === 'POST' ? MODEL_PATHS.find(([pattern]) => pattern.test(path))?.[1] : undefined
    const request: RecordedRequest = {
      index: requests.length,
      protocol: protocol ?? 'unknown',
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body: parseJson(rawBody),
      rawBody,
      aborted: false
    }
    requests.push(request)
    res.on('close', () => {
      if (!res.writableFinished) request.aborted = true
    })
    if (protocol) return serveModelRequest(res, request, protocol)
    if (req.method === 'POST' && path === '/v1/embeddings') {
      const { status, json } = answerEmbeddings(request.body, embeddings)
      return sendJson(res, status, json)
    }
    if (req.method === 'GET' && path === '/v1/models') {
      if (options.requireApiKey !== undefined && presentedKey(req) !== options.requireApiKey) {
        const auth: FakeHttpError = { status: 401, type: 'authentication_error', message: 'invalid x-api-key' }
        return sendJson(
          res,
          401,
          req.headers['anthropic-version'] ? anthropicErrorBody(auth, 'req_fake_models') : openaiErrorBody(auth)
        )
      }
      return sendJson(res, 200, answerModels(req, options.models ?? DEFAULT_FAKE_MODELS))
    }
    sendJson(res, 404, {
      error: {
        message: `fake provider: no route for ${req.method} ${path}`,
        type: 'not_found_error',
        param: null,
        code: null
      }
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      failures.push(`fake provider "${testName}": ${error.message}`)
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: error.message, type: 'server_error' } }, { 'x-should-retry': 'false' })
      else res.destroy()
    })
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    failures,
    embeddings,
    enqueue: (...turns) => void queue.push(...turns),
    pendingTurns: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
