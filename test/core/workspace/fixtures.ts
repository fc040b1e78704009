import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createWorkspace, type CreateWorkspaceOptions, type Workspace } from '../../../src/main/core/workspace'

export interface TempWorkspace {
  root: string
  /** A sibling directory outside the workspace (for escape tests). */
  outside: string
  workspace: Workspace
  write(rel: string, content: string | Uint8Array): string
  cleanup(): void
}

/** A real temp directory with a workspace on it; `files` are written before the workspace loads. */
export async function tempWorkspace(
  files: Record<string, string | Uint8Array> = {},
  options: Partial<CreateWorkspaceOptions> = {}
): Promise<TempWorkspace> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'modus-ws-')))
  const root = join(base, 'project')
  const outside = join(base, 'outside')
  mkdirSync(root)
  mkdirSync(outside)
  const write = (rel: string, content: string | Uint8Array): string => {
    const abs = join(root, rel)
    mkdirSync(dirname(abs), { recursive: true })
    writeFileSync(abs, content)
    return abs
  }
  for (const [rel, content] of Object.entries(files)) write(rel, content)
  const workspace = await createWorkspace({ root, ...options })
  return { root, outside, workspace, write, cleanup: () => rmSync(base, { recursive: true, force: true }) }
}
