import { describe, expect, it } from 'vitest'
import { blockedReport, createBlockedWriteScanner } from '../../../src/main/core/sandbox/blocked-report'

/** The streaming watch on a command's output: refusals wherever they fall, memory bounded. */
describe('the blocked-write scanner', () => {
  it('finds a refusal split across chunks, and one on the unterminated last line', () => {
    const scanner = createBlockedWriteScanner()
    scanner.push('build ok\nbash: line 1: /etc/x: Read-o')
    scanner.push('nly file system\r\nmore output\n')
    scanner.push("progress 100%touch: cannot touch '/usr/y': Read-only file system")
    expect(blockedReport(scanner.text(), [], [])).toBe(
      'Sandbox: blocked writes to /etc/x, /usr/y (outside the writable roots).'
    )
  })

  it('keeps only refusal lines, a bounded number of them, each bounded in length', () => {
    const scanner = createBlockedWriteScanner()
    for (let i = 0; i < 10_000; i++) scanner.push(`line ${i} of ordinary output\n`)
    for (let i = 0; i < 1000; i++) scanner.push(`bash: /etc/f${i}: Read-only file system\n`)
    scanner.push(`${'='.repeat(1_000_000)}`)
    const text = scanner.text()
    expect(text.split('\n')).toHaveLength(200)
    expect(text).not.toContain('ordinary output')
    expect(text.length).toBeLessThan(200 * 2000)
    expect(blockedReport(text, [], [])).toBe(
      'Sandbox: blocked writes to /etc/f0, /etc/f1, /etc/f2, /etc/f3, /etc/f4 and 195 more (outside the writable roots).'
    )
  })
})
