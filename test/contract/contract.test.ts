import { describe, expect, it } from 'vitest'
import { events, requests, type Handlers } from '../../src/shared/contract'
import { eventNames, requestChannels } from '../../src/shared/contract/channels'
import { dispatch, UserFacingError } from '../../src/shared/contract/dispatch'

describe('contract', () => {
  it('the preload channel list is exactly the contract', () => {
    expect([...requestChannels].sort()).toEqual(Object.keys(requests).sort())
    expect([...eventNames].sort()).toEqual(Object.keys(events).sort())
  })

  it('names channels domain:verb and events domain:noun', () => {
    for (const name of [...Object.keys(requests), ...Object.keys(events)]) {
      expect(name).toMatch(/^[a-z]+:[a-zA-Z]+$/)
    }
  })
})

describe('dispatch', () => {
  const handlers = {
    'workspace:open': async ({ path }: { path: string }) => {
      if (path === '/boom') throw new Error('disk on fire')
      if (path === '/nope') throw new UserFacingError('not_found', 'No such folder: /nope')
      return { root: path, name: 'x' }
    }
  } as unknown as Handlers

  it('answers a valid request with ok and the value', async () => {
    expect(await dispatch(handlers, 'workspace:open', { path: '/w' })).toEqual({
      ok: true,
      value: { root: '/w', name: 'x' }
    })
  })

  it('refuses unknown channels without throwing', async () => {
    const result = await dispatch(handlers, 'fs:rmrf', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_channel' } })
    expect(await dispatch(handlers, { toString: null }, {})).toMatchObject({ ok: false })
  })

  it('names the field of a malformed payload', async () => {
    const result = await dispatch(handlers, 'workspace:open', { path: 42 })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_payload')
      expect(result.error.message).toContain('path')
    }
    expect(await dispatch(handlers, 'workspace:open', { path: '/w', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' }
    })
    expect(await dispatch(handlers, 'workspace:open', 'not an object')).toMatchObject({ ok: false })
  })

  it('turns handler failures into typed errors, keeping user-facing codes', async () => {
    expect(await dispatch(handlers, 'workspace:open', { path: '/boom' })).toEqual({
      ok: false,
      error: { code: 'failed', message: 'disk on fire' }
    })
    expect(await dispatch(handlers, 'workspace:open', { path: '/nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
  })
})
