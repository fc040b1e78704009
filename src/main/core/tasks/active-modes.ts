import { BUILT_IN_MODES } from '../../../shared/modes/builtin'
import { resolveModes } from '../../../shared/modes/resolve'
import type { ModeConfig, ResolvedMode } from '../../../shared/modes/schema'
import type { BuiltInAdditions } from '../../../shared/modes/builtin-additions'
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
  /** Adds a domain to a mode's sandbox allow list ("always in this mode" on a network ask). */
  addSandboxDomain(slug: string, domain: string): Promise<void>
  /** Adds an origin to a mode's browser URL allow rules ("always in this mode" on a page launch). */
  addBrowserOrigin(slug: string, origin: string): Promise<void>
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

  /** Saves a change to a mode where it is defined (a project mode in the project, others globally). */
  async function update(slug: string, change: (config: ModeConfig) => ModeConfig): Promise<void> {
    const mode = modes.find((m) => m.slug === slug)
    if (!mode) throw new Error(`The mode ${slug} no longer exists.`)
    const { origin, overridesBuiltIn: _o, savedByUser, ...config } = mode
    const scope = origin === 'project' ? 'project' : 'global'
    // A rule added to the project's own mode stays the project's (it asks for trust like the rest of it).
    modes = (
      await storeFor(deps.currentWorkspace()).save(change(config), scope, slug, {
        own: origin !== 'project' || savedByUser === true
      })
    ).modes
  }

  /** A built-in mode keeps its definition: what the user adds is stored apart (undefined for other modes). */
  function addToBuiltIn(slug: string, added: BuiltInAdditions): Promise<void> | undefined {
    if (modes.find((m) => m.slug === slug)?.origin !== 'builtin') return undefined
    return storeFor(deps.currentWorkspace())
      .addToBuiltIn(slug, added)
      .then((snapshot) => {
        modes = snapshot.modes
      })
  }

  return {
    list: () => modes,
    refresh,
    store: () => storeFor(deps.currentWorkspace()),
    addAllowRules: (slug, rules) =>
      addToBuiltIn(slug, { commandAllow: [...rules] }) ??
      update(slug, (config) => {
        const allow = [...new Set([...(config.commandRules?.allow ?? []), ...rules])]
        // Allow rules only approve with the mode's command toggle on (Roo's meaning): saving one turns it on.
        const autoApprove = { ...config.autoApprove, command: true }
        return { ...config, autoApprove, commandRules: { ...config.commandRules, allow } }
      }),
    addSandboxDomain: (slug, domain) =>
      addToBuiltIn(slug, { sandboxDomains: [domain] }) ??
      update(slug, (config) => {
        const sandbox = config.sandbox ?? { enabled: true, network: 'ask' as const }
        return {
          ...config,
          sandbox: { ...sandbox, allowedDomains: [...new Set([...(sandbox.allowedDomains ?? []), domain])] }
        }
      }),
    addBrowserOrigin: (slug, origin) =>
      addToBuiltIn(slug, { browserAllow: [origin] }) ??
      update(slug, (config) => {
        const allow = [...new Set([...(config.browserRules?.allow ?? []), origin])]
        return { ...config, browserRules: { ...config.browserRules, allow } }
      }),
    dispose: () => current?.stopWatching()
  }
}
