import { describe, expect, it } from 'vitest'
import { retryAfterMsFrom } from '../../../src/main/core/providers/classify-error'
import { ProviderError } from '../../../src/main/core/providers/errors'
import { abortableSleep, retryDelayMs, streamWithRetry } from '../../../src/main/core/providers/retry'
import type { ModelStreamEvent } from '../../../src/main/core/providers/types'

describe('retry delays', () => {
  const plain = new ProviderError('server', 'boom')
  it('doubles per attempt, jitters within [½, 1] of the step and caps', () => {
    expect(retryDelayMs(1, plain, { random: () => 0 })).toBe(500)
    expect(retryDelayMs(1, plain, { random: () => 0.999999 })).toBe(1000)
    expect(retryDelayMs(3, plain, { random: () => 0 })).toBe(2000)
    expect(retryDelayMs(20, plain, { random: () => 0, maxDelayMs: 8000 })).toBe(4000)
  })

  it('uses exactly what the server asked for', () => {
    expect(retryDelayMs(4, new ProviderError('rate_limit', 'x', { retryAfterMs: 1234 }))).toBe(1234)
  })

  it('reads retry-after-ms, then retry-after seconds or an HTTP date', () => {
    expect(retryAfterMsFrom(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150)
    expect(retryAfterMsFrom(new Headers({ 'retry-after': '2' }))).toBe(2000)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterMsFrom(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000)
    expect(retryAfterMsFrom(new Headers({}))).toBeUndefined()
  })
})

describe('streamWithRetry', () => {
  const noSleep = async () => {}
  const classify = (error: unknown) => error as ProviderError

  it('fails at once when the server asks to wait longer than the ceiling', async () => {
    // eslint-disable-next-line require-yield -- a stream that fails before its first event
    const attempt = async function* (): AsyncGenerator<ModelStreamEvent> {
      throw new ProviderError('rate_limit', 'slow down', { retryAfterMs: 3_600_000 })
    }
    const events: ModelStreamEvent[] = []
    const run = async () => {
      for await (const e of streamWithRetry(attempt, new AbortController().signal, classify, { sleep: noSleep }))
        events.push(e)
    }
    await expect(run()).rejects.toMatchObject({ kind: 'rate_limit' })
    expect(events).toEqual([])
  })

  it('never retries once content was yielded', async () => {
    let calls = 0
    const attempt = async function* (): AsyncGenerator<ModelStreamEvent> {
      calls++
      yield { type: 'text', text: 'partial' }
      throw new ProviderError('server', 'dropped')
    }
    const run = async () => {
      for await (const _ of streamWithRetry(attempt, new AbortController().signal, classify, { sleep: noSleep })) void _
    }
    await expect(run()).rejects.toMatchObject({ kind: 'server', partial: true })
    expect(calls).toBe(1)
  })

  it('abortable sleep rejects as cancelled when aborted', async () => {
    const controller = new AbortController()
    const sleeping = abortableSleep(60_000, controller.signal)
    controller.abort()
    await expect(sleeping).rejects.toMatchObject({ kind: 'cancelled' })
  })
})
