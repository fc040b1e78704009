import { z } from 'zod'
import { createKeepAlivePost, postWithFetch, type PostAnswer } from './json-post'

/** An OpenAI or OpenAI-compatible embeddings endpoint (Ollama, LM Studio, vLLM serve `/v1/embeddings`). */
export interface EmbeddingsEndpoint {
  /** Base URL up to and including `/v1`, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string
  model: string
  apiKey?: string
  /** Asked of models that can shorten their vectors (OpenAI text-embedding-3-*). */
  dimensions?: number
}

export interface Embedder {
  readonly model: string
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
}

export class EmbeddingsError extends Error {
  override name = 'EmbeddingsError'
}

/** Numbers only, checked in one loop: `z.array(z.number())` costs a parse per float (thousands per response). */
const isNumberArray = (value: unknown): value is number[] => {
  if (!Array.isArray(value)) return false
  for (const item of value) if (typeof item !== 'number') return false
  return true
}

/** A vector as OpenAI's API sends it: an array of numbers, or (asked for `base64`) little-endian float32s in base64. */
const EmbeddingsResponse = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        embedding: z.union([z.string(), z.custom<number[]>(isNumberArray, 'an array of numbers')])
      })
    )
    .min(1)
})

/** The float32s of a base64 vector (null: not whole float32s). */
const decodeBase64Vector = (text: string): number[] | null => {
  const bytes = Buffer.from(text, 'base64')
  if (bytes.length % 4 !== 0) return null
  const vector = new Array<number>(bytes.length / 4)
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4)
  return vector
}

/** Answers to a `base64` request that say the endpoint does not take it: it is asked for floats instead. */
const REFUSED_FORMAT_STATUSES = new Set([400, 422])

const REQUEST_TIMEOUT_MS = 60_000
/** Longest text sent for one chunk (the model's context is the limit; this keeps requests small). */
const MAX_INPUT_CHARS = 8000

const errorText = ({ body, statusText }: PostAnswer): string => {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string }
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message
    if (message) return message
  } catch {
    // not JSON: the start of the body says enough
  }
  return body.slice(0, 200) || statusText
}

const parsedJson = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return null
  }
}

/**
 * Calls POST {baseUrl}/embeddings; every failure is an EmbeddingsError that says what went wrong.
 * Through `fetchImpl` when given, else node:http(s) with keep-alive connections.
 */
export function createEmbedder(endpoint: EmbeddingsEndpoint, fetchImpl?: typeof fetch): Embedder {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/embeddings`
  const post = fetchImpl ? postWithFetch(fetchImpl) : createKeepAlivePost()
  // Vectors are asked for in base64, as OpenAI's SDK does (a quarter of the bytes, no float parsed
  // from JSON); an endpoint that refuses it is asked for floats from then on.
  let format: 'base64' | 'float' = 'base64'
  const request = async (texts: readonly string[], signal: AbortSignal | undefined, encoding: typeof format) => {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    try {
      return await post(
        url,
        {
          'content-type': 'application/json',
          ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {})
        },
        JSON.stringify({
          model: endpoint.model,
          input: texts.map((t) => t.slice(0, MAX_INPUT_CHARS)),
          encoding_format: encoding,
          ...(endpoint.dimensions ? { dimensions: endpoint.dimensions } : {})
        }),
        signal ? AbortSignal.any([signal, timeout]) : timeout
      )
    } catch (err) {
      if (signal?.aborted) throw err
      throw new EmbeddingsError(`The embeddings endpoint ${url} could not be reached: ${(err as Error).message}`)
    }
  }
  return {
    model: endpoint.model,
    async embed(texts, signal) {
      if (texts.length === 0) return []
      const asked = format
      let response = await request(texts, signal, asked)
      if (asked === 'base64' && REFUSED_FORMAT_STATUSES.has(response.status)) {
        const floats = await request(texts, signal, 'float')
        // Only an endpoint that takes floats where it refused base64 is switched (a bad input fails both ways).
        if (floats.status >= 200 && floats.status <= 299) format = 'float'
        response = floats
      }
      if (response.status < 200 || response.status > 299)
        throw new EmbeddingsError(`The embeddings endpoint answered ${response.status}: ${errorText(response)}`)
      const parsed = EmbeddingsResponse.safeParse(parsedJson(response.body))
      if (!parsed.success)
        throw new EmbeddingsError(`The embeddings endpoint ${url} sent an answer that is not an embeddings list.`)
      const vectors = new Array<number[]>(texts.length)
      for (const item of parsed.data.data) {
        const vector = typeof item.embedding === 'string' ? decodeBase64Vector(item.embedding) : item.embedding
        if (!vector) throw new EmbeddingsError(`The embeddings endpoint ${url} sent a vector that is not float32s.`)
        vectors[item.index] = vector
      }
      if (vectors.some((v) => !v) || parsed.data.data.length !== texts.length) {
        throw new EmbeddingsError(
          `The embeddings endpoint returned ${parsed.data.data.length} vectors for ${texts.length} inputs.`
        )
      }
      const dimension = vectors[0].length
      if (dimension === 0 || vectors.some((v) => v.length !== dimension))
        throw new EmbeddingsError('The embeddings endpoint returned vectors of different sizes.')
      return vectors
    }
  }
}
