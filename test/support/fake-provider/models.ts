import type { IncomingMessage } from 'node:http'

/** A model `GET /v1/models` lists; a bare string is an id with no dates. */
export interface FakeModel {
  id: string
  displayName?: string
  /** ISO date; default 2025-01-01. */
  createdAt?: string
  /** ISO date of a scheduled retirement. */
  retiresAt?: string
  lifecycle?: 'active' | 'deprecated' | 'retired'
}

/** What a fresh fake lists: current models, one with a retirement date, one the local table does not know (qwen3-coder). */
export const DEFAULT_FAKE_MODELS: FakeModel[] = [
  { id: 'claude-sonnet-4-6', displayName: 'Claude Sonnet 4.6', createdAt: '2026-02-17' },
  {
    id: 'claude-sonnet-4-5-20250929',
    displayName: 'Claude Sonnet 4.5',
    createdAt: '2025-09-29',
    retiresAt: '2026-11-30',
    lifecycle: 'deprecated'
  },
  { id: 'claude-opus-4-1-20250805', displayName: 'Claude Opus 4.1', createdAt: '2025-08-05' },
  { id: 'gpt-4o', createdAt: '2024-05-13' },
  { id: 'gpt-5', createdAt: '2025-08-07' },
  { id: 'qwen3-coder', displayName: 'Qwen3 Coder', createdAt: '2025-07-22' }
]

const PAGE_SIZE = 2

/**
 * `GET /v1/models` in the shape of whichever SDK asks: Anthropic's (`anthropic-version` header; cursor
 * pages of two, so paging is exercised) or OpenAI's (one list, `created` in seconds).
 */
export function answerModels(req: IncomingMessage, listed: ReadonlyArray<string | FakeModel>): unknown {
  const models = listed.map((m) => (typeof m === 'string' ? { id: m } : m))
  const url = new URL(req.url ?? '/', 'http://fake')
  if (!req.headers['anthropic-version']) {
    return {
      object: 'list',
      data: models.map((m) => ({
        id: m.id,
        object: 'model',
        created: Date.parse(m.createdAt ?? '2025-01-01') / 1000,
        owned_by: 'fake'
      }))
    }
  }
  const after = url.searchParams.get('after_id')
  const start = after ? models.findIndex((m) => m.id === after) + 1 : 0
  const page = models.slice(start, start + PAGE_SIZE)
  return {
    data: page.map((m) => ({
      type: 'model',
      id: m.id,
      display_name: m.displayName ?? m.id,
      created_at: `${m.createdAt ?? '2025-01-01'}T00:00:00Z`,
      retires_at: m.retiresAt ? `${m.retiresAt}T00:00:00Z` : null,
      deprecated_at: m.lifecycle === 'deprecated' || m.lifecycle === 'retired' ? '2026-01-01T00:00:00Z' : null,
      lifecycle: m.lifecycle ?? 'active',
      capabilities: null,
      line: null,
      max_input_tokens: null,
      max_tokens: null
    })),
    has_more: start + PAGE_SIZE < models.length,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null
  }
}
