import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

describe('shell startup', () => {
  let h: Harness
  beforeAll(async () => {
    // An rc file that never finishes (a prompt framework waiting on the network, say).
    h = await createHarness({ bashrc: 'sleep 60\nexport FROM_RC=1\n', deps: { readyTimeoutMs: 500 } })
  })
  afterAll(async () => h.cleanup())

  it('falls back to a shell without the user’s rc files when they do not finish, and says so', async () => {
    const result = await h.service.forTask('slow-rc', h.root).execute({ command: 'echo ${FROM_RC:-none}' })
    expect(result.exitCode).toBe(0)
    expect(result.output.text).toBe('none\n')
    expect(result.notes.join(' ')).toContain('startup files did not finish')
    expect(h.service.list().filter((t) => t.taskId === 'slow-rc' && t.status !== 'exited')).toHaveLength(1)
  })
})
