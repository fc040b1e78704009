import type { TrustStore } from '../workspace-session/trust-store'

/**
 * What a project's own files can ask for. Each kind is answered by `GRANT_RULES`; a new kind fails
 * to compile until it says whether it needs trust and whether it belongs to the open folder only.
 *
 * - `modes`: what `.modus/modes.yaml` / `.roomodes` grant — auto-approve toggles, allow rules,
 *   browser origins, sandbox roots and domains (the trust prompt lists them together, per mode).
 * - `mcp-servers`: the programs and URLs `.modus/mcp.json` configures, with their always-allowed tools.
 * - `hooks`: the project's hooks (programs run around tool calls).
 * - `rule-files`: `.modus/rules*`, `.roo/rules*`, `AGENTS.md` — prompt text, not a grant.
 */
export type GrantKind = 'modes' | 'mcp-servers' | 'hooks' | 'rule-files'

interface GrantRule {
  /** In force only once the user trusted the folder having seen these grants. */
  needsTrust: boolean
  /** Only the open folder's can be in force (its servers follow the folder the window shows). */
  openFolderOnly: boolean
}

const GRANT_RULES: Record<GrantKind, GrantRule> = {
  modes: { needsTrust: true, openFolderOnly: false },
  'mcp-servers': { needsTrust: true, openFolderOnly: true },
  hooks: { needsTrust: true, openFolderOnly: false },
  // Prompt files carry instructions, not permissions: they are read in any folder (decisions.md).
  'rule-files': { needsTrust: false, openFolderOnly: false }
}

/** The one answer to "is this project grant in force?"; every caller asks it. */
export interface TrustService {
  /**
   * Whether a project's grants of this kind, as its files make them now (`grants`: one item each,
   * in the trust prompt's words), are in force in the folder `root`.
   */
  inForce(kind: GrantKind, root: string, grants: readonly string[]): boolean
}

/** The folder the window shows, with the answer for everything it grants (all kinds together). */
export interface OpenFolder {
  root: string
  trusted: boolean
}

export interface TrustServiceDeps {
  store: Pick<TrustStore, 'isTrusted'>
  openFolder: () => OpenFolder | null
}

/**
 * Trust is per folder and tied to the grants the user saw. For the open folder it is also one answer
 * for all it grants: a server the user has not seen suspends its modes' grants too, and the reverse.
 */
export function createTrustService(deps: TrustServiceDeps): TrustService {
  return {
    inForce(kind, root, grants) {
      const rule = GRANT_RULES[kind]
      if (!rule.needsTrust) return true
      const open = deps.openFolder()
      const isOpen = open?.root === root
      if (rule.openFolderOnly && !isOpen) return false
      return deps.store.isTrusted(root, grants) && (!isOpen || open.trusted)
    }
  }
}

/** One answer for every folder and grant: the CLI's `--trust` flag (absent → nothing is trusted). */
export function fixedTrust(trusted: boolean): TrustService {
  return { inForce: (kind) => !GRANT_RULES[kind].needsTrust || trusted }
}
