import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandOutputDir } from '../../../src/main/core/terminal/paths'
import { createHarness, type Harness } from './harness'

describe('large outputs', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness({ deps: { previewChars: 4000 } })
  })
  afterAll(async () => h.cleanup())

  it('captures 20 MB with bounded memory, the whole output on disk and the right tail', async () => {
    // 20 MB of numbered lines (about 21 bytes each), ending with a known last line.
    const lines = 1_000_000
    const command = `awk 'BEGIN { for (i = 1; i <= ${lines}; i++) printf "line %07d ..........\\n", i }'`
    let peak = 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, h.service.retainedChars())
    }, 5)
    const result = await h.service.forTask('big', h.root).execute({ command, timeoutMs: 120_000 })
    clearInterval(sampler)
    const expectedBytes = lines * 'line 0000000 ..........\n'.length
    expect(result.exitCode).toBe(0)
    expect(result.output.totalBytes).toBe(expectedBytes)
    expect((await stat(join(commandOutputDir(h.dataDir, 'big'), result.artifactId))).size).toBe(expectedBytes)
    expect(result.output.truncated).toBe(true)
    expect(result.output.text.length).toBeLessThan(4200)
    expect(result.output.text.startsWith('line 0000001 ..........\n')).toBe(true)
    expect(result.output.text.endsWith(`line ${String(lines).padStart(7, '0')} ..........\n`)).toBe(true)
    // Preview buffers + the 1 MB terminal scrollback + one write batch, never the 20 MB.
    expect(peak).toBeLessThan(3_500_000)
  }, 120_000)

  it('loses no bytes over 100 quick commands (node-pty tail-loss regression)', async () => {
    const task = h.service.forTask('loss', h.root)
    let short = 0
    for (let i = 0; i < 100; i++) {
      const result = await task.execute({ command: 'head -c 30000 /dev/zero | base64' })
      if (result.output.totalBytes !== 40_527 || result.exitCode !== 0) short++
    }
    expect(short).toBe(0)
  }, 120_000)
})
