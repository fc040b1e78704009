import { BUILT_IN_MODES } from '../../../shared/modes/builtin'
import { resolveModes } from '../../../shared/modes/resolve'
import type { ResolvedMode } from '../../../shared/modes/schema'
import type { EventBus } from '../event-bus'
import { createModeStore, type ModeStore } from '../modes'

export interface ActiveModesDeps {
  dataDir: string
  bus?: EventBus
  /** The open workspace: its project modes join the global and built-in ones. */
  currentWorkspace: () => string | null
}

/** The modes in force for the open workspace, kept current as the user or a file edits them. */
export interface ActiveModes {
  list(): ResolvedMode[]
  /** Re-reads the modes of the open workspace (after a mode edit or opening another folder). */
  refresh(): Promise<void>
  /** The mode store of the open workspace (global modes only when none is open). */
  store(): ModeStore
  /** Adds command allow rules to a mode where it is defined, turning its command toggle on. */
  addAllowRules(slug: string, rules: readonly string[]): Promise<void>
  dispose(): void
}

export async function createActiveModes(deps: ActiveModesDeps): Promise<ActiveModes> {
  let modes: ResolvedMode[] = resolveModes({ builtIns: BUILT_IN_MODES })
  let current: { root: string | null; store: ModeStore; stopWatching: () => void } | null = null
  const storeFor = (root: string | null): ModeStore => {
    if (!current || current.root !== root) {
      current?.stopWatching()
      const store = createModeStore({ dataDir: deps.dataDir, workspaceRoot: root ?? undefined })
      store.onChange((snapshot) => {
        modes = snapshot.modes
        deps.bus?.emit('modes:changed', snapshot)
      })
      // Hand edits of modes.yaml / .roomodes are picked up while the workspace is open.
      current = { root, store, stopWatching: store.watch() }
    }
    return current.store
  }
  const refresh = async () => {
    modes = (await storeFor(deps.currentWorkspace()).list()).modes
  }
  await refresh()

  return {
    list: () => modes,
    refresh,
    store: () => storeFor(deps.currentWorkspace()),
    async addAllowRules(slug, rules) {
      const mode = modes.find((m) => m.slug === slug)
      if (!mode) throw new Error(`The mode ${slug} no longer exists.`)
      const { origin, overridesBuiltIn: _o, ...config } = mode
      const allow = [...new Set([...(config.commandRules?.allow ?? []), ...rules])]
      const scope = origin === 'project' ? 'project' : 'global'
      // Allow rules only approve with the mode's command toggle on (Roo's meaning): saving one turns it on.
      const autoApprove = { ...config.autoApprove, command: true }
      const snapshot = await storeFor(deps.currentWorkspace()).save({ ...config, autoApprove, commandRules: { ...config.commandRules, allow } }, scope, slug)
      modes = snapshot.modes
    },
    dispose: () => current?.stopWatching()
  }
}
