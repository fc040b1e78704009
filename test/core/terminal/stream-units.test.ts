import { describe, expect, it } from 'vitest'
import { cleanControls, collapseCarriageReturns, createModelTextFilter } from '../../../src/main/core/terminal/ansi'
import { createMarkerParser, type Marker } from '../../../src/main/core/terminal/marker-parser'

const parseAll = (chunks: string[]) => {
  const out: Array<string | Marker> = []
  const parser = createMarkerParser({ text: (t) => out.push(t), marker: (m) => out.push(m) })
  for (const chunk of chunks) parser.push(chunk)
  parser.flush()
  // Merge adjacent text so the result does not depend on where chunks were cut.
  return out.reduce<Array<string | Marker>>((acc, item) => {
    const last = acc[acc.length - 1]
    if (typeof item === 'string' && typeof last === 'string') acc[acc.length - 1] = last + item
    else acc.push(item)
    return acc
  }, [])
}

const NONCE = '0123456789abcdef0123456789abcdef'
const STREAM = `before\x1b]6973;S;${NONCE}\x07out é\r\n\x1b]6973;E;${NONCE};42;/tmp/a;b\x07after`

describe('marker parser', () => {
  it('finds start and end markers with exit code and cwd', () => {
    const items = parseAll([STREAM])
    expect(items[0]).toBe('before')
    expect(items[1]).toMatchObject({ kind: 'S', nonce: NONCE })
    expect(items[2]).toBe('out é\r\n')
    expect(items[3]).toMatchObject({ kind: 'E', nonce: NONCE, exitCode: 42, cwd: '/tmp/a;b' })
    expect(items[4]).toBe('after')
  })

  it('gives the same result however the stream is cut', () => {
    const whole = JSON.stringify(parseAll([STREAM]))
    for (let cut = 1; cut < STREAM.length; cut++) {
      expect(JSON.stringify(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)]))).toBe(whole)
    }
    expect(JSON.stringify(parseAll([...STREAM]))).toBe(whole)
  })

  it('passes malformed or foreign OSC sequences through as text', () => {
    const foreign = '\x1b]6973;E;nothex;0;/\x07\x1b]0;title\x07'
    expect(parseAll([foreign])).toEqual([foreign])
  })
})

describe('model text filter', () => {
  const RAW = '\x1b[1;31mred\x1b[0m\r\n\x1b]0;title\x07plain\ttab\r\n\x1b(Bdone\x07\r\n'
  it('strips escape sequences and CR before LF', () => {
    const filter = createModelTextFilter()
    expect(filter.push(RAW) + filter.end()).toBe('red\nplain\ttab\ndone\n')
  })

  it('gives the same text however the stream is cut (control characters go when shown)', () => {
    for (let cut = 1; cut < RAW.length; cut++) {
      const filter = createModelTextFilter()
      expect(cleanControls(filter.push(RAW.slice(0, cut)) + filter.push(RAW.slice(cut)) + filter.end())).toBe(
        'red\nplain\ttab\ndone\n'
      )
    }
  })

  it('keeps the last redraw of a progress line', () => {
    expect(collapseCarriageReturns('10%\r50%\r100%\ndone\n')).toBe('100%\ndone\n')
  })
})

describe('text ring', () => {
  it('keeps exactly the last characters and counts what it dropped', async () => {
    const { createTextRing } = await import('../../../src/main/core/terminal/text-ring')
    const ring = createTextRing(10)
    let all = ''
    for (const piece of ['abc', 'defgh', '', 'ijklmnop', 'q', 'rstuvwxyz0123']) {
      ring.push(piece)
      all += piece
      expect(ring.text()).toBe(all.slice(-10))
      expect(ring.dropped()).toBe(Math.max(0, all.length - 10))
      expect(ring.size()).toBeGreaterThanOrEqual(Math.min(10, all.length))
    }
  })
})
