import { execFileSync } from 'node:child_process'
import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandOutputDir } from '../../../src/main/core/terminal/paths'
import { createExecuteCommandExecutor } from '../../../src/main/core/tools/execute-command'
import { createReadCommandOutputExecutor } from '../../../src/main/core/tools/read-command-output'
import type { CommandToolContext } from '../../../src/main/core/ports/tool-types'
import { createHarness, type Harness } from './harness'

// The task's output store sits on a 2 MB tmpfs; the command prints about 4 MB. Mounting needs
// root (CAP_SYS_ADMIN): where it is refused, the test is skipped and says why.

const TASK = 'disk-full'

function tryMountTmpfs(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'pipe' })
    return null
  } catch (error) {
    return `cannot mount a 2 MB tmpfs here (needs root / CAP_SYS_ADMIN): ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`
  }
}

describe('command output on a full disk', () => {
  let h: Harness
  let dir: string
  let skipReason: string | null = null
  beforeAll(async () => {
    h = await createHarness({ deps: { previewChars: 400 } })
    dir = commandOutputDir(h.dataDir, TASK)
    mkdirSync(dir, { recursive: true })
    skipReason = tryMountTmpfs(dir)
  })
  afterAll(async () => {
    if (!skipReason) execFileSync('umount', [dir])
    await h.cleanup()
  })

  const ctx = (): CommandToolContext => ({
    taskId: TASK,
    signal: new AbortController().signal,
    modelSupportsImages: false,
    terminal: h.service.forTask(TASK, h.root)
  })
  const textOf = (out: { content: unknown[] }) => (out.content[0] as { text: string }).text

  it('says where the saved output stops and why, and a later search does not pass for the whole output', async (test) => {
    if (skipReason) test.skip(skipReason)
    const command = `awk 'BEGIN { for (i = 1; i <= 200000; i++) printf "line %07d ..........\\n", i; print "THE LAST LINE" }'`
    const result = textOf(await createExecuteCommandExecutor().execute({ command }, ctx()))
    expect(result).toContain('Command exited with code 0')
    // The preview still shows the real end; the result says the file does not have it.
    expect(result).toContain('THE LAST LINE')
    const stopped =
      /The saved output stops at byte ([\d,]+) of ([\d,]+) printed: Could not write (\S+) \(in Modus's app data dir\): the disk is full \(ENOSPC\)/.exec(
        result
      )
    expect(stopped, result).not.toBeNull()
    const [, at, printed, path] = stopped!
    const artifactId = /artifact_id (cmd-\d+\.txt)/.exec(result)![1]
    expect(path).toBe(join(dir, artifactId))
    expect(Number(at.replace(/,/g, ''))).toBe(statSync(path).size)
    expect(Number(printed.replace(/,/g, ''))).toBe(
      200_000 * 'line 0000000 ..........\n'.length + 'THE LAST LINE\n'.length
    )
    expect(result).not.toContain('the full output is saved')

    const search = textOf(
      await createReadCommandOutputExecutor().execute({ artifact_id: artifactId, search: 'THE LAST LINE' }, ctx())
    )
    expect(search).toContain('0 matching line(s)')
    expect(search).toContain(`The saved output stops at byte ${at} of ${printed} printed`)
    expect(search).toContain('a search cannot find it')
  }, 120_000)
})
