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

const EmbeddingsResponse = z.object({
  data: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        embedding: z.custom<number[]>(isNumberArray, 'an array of numbers')
      })
    )
    .min(1)
})

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
  return {
    model: endpoint.model,
    async embed(texts, signal) {
      if (texts.length === 0) return []
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
      let response: PostAnswer
      try {
        response = await post(
          url,
          {
            'content-type': 'application/json',
            ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {})
          },
          JSON.stringify({
            model: endpoint.model,
            input: texts.map((t) => t.slice(0, MAX_INPUT_CHARS)),
            encoding_format: 'float',
            ...(endpoint.dimensions ? { dimensions: endpoint.dimensions } : {})
          }),
          signal ? AbortSignal.any([signal, timeout]) : timeout
        )
      } catch (err) {
        if (signal?.aborted) throw err
        throw new EmbeddingsError(`The embeddings endpoint ${url} could not be reached: ${(err as Error).message}`)
      }
      if (response.status < 200 || response.status > 299)
        throw new EmbeddingsError(`The embeddings endpoint answered ${response.status}: ${errorText(response)}`)
      const parsed = EmbeddingsResponse.safeParse(parsedJson(response.body))
      if (!parsed.success)
        throw new EmbeddingsError(`The embeddings endpoint ${url} sent an answer that is not an embeddings list.`)
      const vectors = new Array<number[]>(texts.length)
      for (const item of parsed.data.data) vectors[item.index] = item.embedding
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
