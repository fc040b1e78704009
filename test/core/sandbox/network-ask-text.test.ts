import { describe, expect, it } from 'vitest'
import { gaveUpLine, programOf, waited } from '../../../src/main/core/sandbox/network-ask-text'

describe('the lines of an unanswered network ask', () => {
  it('names the program of the part of the command line that names the host', () => {
    expect(programOf('curl -m 8 https://example.com/', 'example.com')).toBe('curl')
    expect(programOf('cd app && HTTPS_PROXY= env DEBUG=1 /usr/bin/wget example.com', 'example.com')).toBe('wget')
    expect(programOf('npm ci; npm test', 'registry.npmjs.org')).toBe('npm')
    expect(programOf('', 'example.com')).toBe('the command')
  })

  it('says how long it waited', () => {
    expect(waited(400)).toBe('less than a second')
    expect(waited(7_600)).toBe('8 s')
    expect(waited(125_000)).toBe('2 min 5 s')
    expect(waited(120_000)).toBe('2 min')
    expect(gaveUpLine('curl', 'example.com:443', 8_000)).toBe(
      'curl gave up waiting for approval of example.com:443 after 8 s'
    )
  })
})
