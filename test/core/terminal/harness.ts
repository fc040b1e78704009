import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TerminalInfo } from '../../../src/shared/contract/terminal'
import { createTerminalService, type TerminalServiceDeps } from '../../../src/main/core/terminal'
import type { TerminalService } from '../../../src/main/core/terminal'

/** A terminal service on a real pty with a temp data dir, workspace and HOME (so rc files are ours). */
export interface Harness {
  service: TerminalService
  root: string
  home: string
  dataDir: string
  /** Everything the UI bridge received per terminal. */
  data: Map<string, string>
  lists: TerminalInfo[][]
  cleanup(): Promise<void>
}

export async function createHarness(
  options: { bashrc?: string; zshrc?: string; shell?: string; deps?: Partial<TerminalServiceDeps> } = {}
): Promise<Harness> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'modus-term-')))
  const root = join(base, 'workspace')
  const home = join(base, 'home')
  const dataDir = join(base, 'data')
  await mkdir(root, { recursive: true })
  await mkdir(home, { recursive: true })
  await writeFile(join(home, '.bashrc'), options.bashrc ?? '')
  await writeFile(join(home, '.zshrc'), options.zshrc ?? '')
  const data = new Map<string, string>()
  const lists: TerminalInfo[][] = []
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SHELL: options.shell ?? '/bin/bash',
    LANG: 'C.UTF-8'
  }
  const service = createTerminalService({
    dataDir,
    shell: options.shell ?? '/bin/bash',
    resolveEnv: async () => env,
    emit: (name: string, payload: unknown) => {
      if (name === 'terminal:data') {
        const { terminalId, data: text } = payload as { terminalId: string; data: string }
        data.set(terminalId, (data.get(terminalId) ?? '') + text)
      } else lists.push(payload as TerminalInfo[])
    },
    ...options.deps
  })
  return {
    service,
    root,
    home,
    dataDir,
    data,
    lists,
    async cleanup() {
      await service.dispose()
      await rm(base, { recursive: true, force: true })
    }
  }
}

export const until = async (
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000
): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
