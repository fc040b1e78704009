import { createHash } from 'node:crypto'

/** How the fake `/v1/embeddings` behaves; tests may change it while the server runs. */
export interface FakeEmbeddingsControl {
  /** Vector size (default 64). */
  dimension: number
  /** Embedding requests answered before every later one fails with `failStatus` (null = never). */
  failAfter: number | null
  failStatus: number
  /** Embedding requests served so far (failed ones included). */
  served: number
}

export const defaultEmbeddingsControl = (): FakeEmbeddingsControl => ({
  dimension: 64,
  failAfter: null,
  failStatus: 500,
  served: 0
})

/**
 * A deterministic vector: each word (lowercased, camelCase split) adds to a hashed bucket, then the
 * vector is normalised. Texts sharing words point the same way, so similarity follows shared vocabulary.
 */
export function fakeEmbedding(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0)
  const words =
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  for (const word of words) {
    const digest = createHash('md5').update(word).digest()
    vector[digest.readUInt32LE(0) % dimension] += digest[4] & 1 ? 1 : -1
  }
  const norm = Math.hypot(...vector) || 1
  return vector.map((v) => v / norm)
}

/** The answer to one POST /v1/embeddings body, as OpenAI shapes it, or an error status. */
export function answerEmbeddings(body: any, control: FakeEmbeddingsControl): { status: number; json: unknown } {
  control.served++
  if (control.failAfter !== null && control.served > control.failAfter) {
    return {
      status: control.failStatus,
      json: { error: { message: 'fake embeddings: the endpoint is failing on purpose', type: 'server_error' } }
    }
  }
  const input = body?.input
  const texts =
    typeof input === 'string'
      ? [input]
      : Array.isArray(input) && input.every((t) => typeof t === 'string')
        ? input
        : null
  if (!texts || typeof body?.model !== 'string') {
    return {
      status: 400,
      json: {
        error: { message: "'input' (string or string[]) and 'model' are required", type: 'invalid_request_error' }
      }
    }
  }
  if (body.encoding_format !== undefined && body.encoding_format !== 'float' && body.encoding_format !== 'base64') {
    return {
      status: 400,
      json: { error: { message: "'encoding_format' must be 'float' or 'base64'", type: 'invalid_request_error' } }
    }
  }
  const dimension = typeof body.dimensions === 'number' ? body.dimensions : control.dimension
  // As OpenAI's API: floats, or little-endian float32s in base64 when asked for them.
  const encode = (vector: number[]) =>
    body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector
  return {
    status: 200,
    json: {
      object: 'list',
      model: body.model,
      data: texts.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: encode(fakeEmbedding(text, dimension))
      })),
      usage: { prompt_tokens: texts.join(' ').length / 4, total_tokens: texts.join(' ').length / 4 }
    }
  }
}
