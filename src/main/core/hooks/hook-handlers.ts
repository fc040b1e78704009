import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { ClaudeHooksSource, HookEntry, HooksListing, HooksSource } from '../../../shared/contract/hooks'
import { importClaudeHooks } from '../../../shared/hooks/claude-import'
import { hooksOf, type HooksFile, type LoadedHook } from '../../../shared/hooks/schema'
import type { TrustService } from '../trust/trust-service'
import {
  appendHooks,
  globalHooksFile,
  projectHookGrants,
  projectHooksFile,
  readHooksFile,
  writeHooks
} from './hook-files'

type HookHandlers = Pick<
  Handlers,
  'hooks:list' | 'hooks:saveGlobal' | 'hooks:previewClaudeImport' | 'hooks:importClaude'
>

export interface HookHandlerDeps {
  dataDir: string
  /** The user's home, where Claude Code keeps its user settings (`~/.claude/settings.json`). */
  home: string
  /** The open folder and whether the user trusts it. */
  currentWorkspace: () => { root: string; trusted: boolean } | null
  trust: Pick<TrustService, 'inForce'>
}

/** A hook as the Settings section shows it: where it was read from is the source's. */
const entryOf = ({ origin: _origin, file: _file, ...hook }: LoadedHook): HookEntry => hook

/** The Settings → Hooks requests: list, edit the global file, import Claude Code's hooks into it. */
export function createHookHandlers(deps: HookHandlerDeps): HookHandlers {
  const globalFile = globalHooksFile(deps.dataDir)

  const listing = async (): Promise<HooksListing> => {
    const global = await readHooksFile(globalFile, 'global')
    const open = deps.currentWorkspace()
    if (!open) return { global: sourceOf(globalFile, global), project: null }
    const file = projectHooksFile(open.root)
    const project = await readHooksFile(file, 'project')
    // The same question the hook service asks before it runs a project hook.
    const inForce = deps.trust.inForce('hooks', open.root, await projectHookGrants(open.root))
    return {
      global: sourceOf(globalFile, global),
      project: { ...sourceOf(file, project), inForce, folderTrusted: open.trusted }
    }
  }

  const claudeSources = (): Array<{ scope: ClaudeHooksSource['scope']; file: string }> => {
    const root = deps.currentWorkspace()?.root
    return [
      ...(root ? [{ scope: 'project' as const, file: join(root, '.claude', 'settings.json') }] : []),
      { scope: 'user' as const, file: join(deps.home, '.claude', 'settings.json') }
    ]
  }

  return {
    'hooks:list': listing,
    async 'hooks:saveGlobal'({ hooks }) {
      try {
        await writeHooks(globalFile, hooks)
      } catch (error) {
        throw new UserFacingError('hooks_not_saved', error instanceof Error ? error.message : String(error))
      }
      return listing()
    },
    async 'hooks:previewClaudeImport'() {
      return { sources: await Promise.all(claudeSources().map(({ scope, file }) => readClaudeSettings(scope, file))) }
    },
    async 'hooks:importClaude'({ hooks }) {
      const file: HooksFile = { hooks: {} }
      for (const { event, ...hook } of hooks) (file.hooks[event] ??= []).push(hook)
      let added: number
      try {
        added = await appendHooks(globalFile, file)
      } catch (error) {
        throw new UserFacingError('hooks_not_saved', error instanceof Error ? error.message : String(error))
      }
      return { added, listing: await listing() }
    }
  }
}

function sourceOf(file: string, read: { hooks: LoadedHook[]; problems: string[] }): HooksSource {
  return { file, hooks: read.hooks.map(entryOf), problems: read.problems }
}

/** One Claude Code settings file, read and converted but not applied. */
async function readClaudeSettings(scope: ClaudeHooksSource['scope'], file: string): Promise<ClaudeHooksSource> {
  const empty = { scope, file, hooks: [], skipped: [] }
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ...empty, found: false }
    return { ...empty, found: true, error: `cannot be read (${(error as Error).message})` }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    return { ...empty, found: true, error: `is not valid JSON (${(error as Error).message})` }
  }
  const imported = importClaudeHooks(raw)
  if (!imported.ok) return { ...empty, found: true, error: imported.error }
  return {
    scope,
    file,
    found: true,
    hooks: hooksOf(imported.value.file, 'global', file).map(entryOf),
    skipped: imported.value.skipped
  }
}
