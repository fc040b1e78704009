import type { ModesView } from '../../../../shared/contract/modes'
import type { PromptPreview } from '../../../../shared/contract/prompt'
import type { ModeConfig, ModeSource } from '../../../../shared/modes/schema'
import type { SandboxStatus } from '../../../../shared/sandbox/status'
import type { BuiltInAdditions } from '../../../../shared/modes/builtin-additions'

export type ModeScope = 'global' | 'project'
export type ModesFormat = 'modus' | 'roo'

/** A mode as the editor lists it. */
export interface ModeEntry extends ModeConfig {
  origin: ModeSource
  /** A global or project mode that replaces the built-in with the same slug. */
  overridesBuiltIn: boolean
  /** A project mode the user saved in the app, unchanged since: their own grant, no trust needed. */
  savedByUser?: boolean
  /** A built-in mode: what the user added to it, kept apart from the built-in's definition. */
  additions?: BuiltInAdditions
}

export interface ModesProblem {
  /** Which file; the file is kept as it is until the user fixes it. */
  file: string
  message: string
  line?: number
}

export interface ModesListing {
  modes: ModeEntry[]
  problems: ModesProblem[]
  /** Project modes' auto-approve and allow rules apply only once the workspace is trusted. */
  projectTrusted: boolean
  /** False while no workspace is open: project modes cannot be saved. */
  hasProject: boolean
}

/** The core's view as the editor lists it. Trust belongs to the workspace domain, so the caller says it. */
export const toModesListing = (view: ModesView, projectTrusted: boolean): ModesListing => ({
  modes: view.modes,
  problems: view.problems,
  projectTrusted,
  hasProject: Boolean(view.files.project)
})

export type RegexTest =
  { ok: true; matches: string[]; scanned: number; truncated: boolean } | { ok: false; error: string }

export interface ImportOutcome {
  listing: ModesListing
  imported: string[]
  warnings: string[]
}

/** What the mode editor needs from the core; one implementation over the typed client. */
export interface ModesApi {
  list(): Promise<ModesListing>
  /** `previousSlug` renames a custom mode in place. */
  save(mode: ModeConfig, scope: ModeScope, previousSlug?: string): Promise<ModesListing>
  remove(slug: string, scope: ModeScope): Promise<ModesListing>
  /** Drops the override of a built-in mode in that scope. */
  resetBuiltIn(slug: string, scope: ModeScope): Promise<ModesListing>
  importText(text: string, format: ModesFormat, scope: ModeScope): Promise<ImportOutcome>
  /** One mode, or (no slug) every mode the user made or changed. */
  exportMode(slug: string | undefined, format: ModesFormat): Promise<{ fileName: string; content: string }>
  testRegex(pattern: string): Promise<RegexTest>
  /** Whether commands can run in the OS sandbox here (absent: not known to this host). */
  sandboxStatus?(): Promise<SandboxStatus>
  /** What the mode sends on every request in the open folder (absent: not known to this host). */
  previewPrompt?(slug: string): Promise<PromptPreview>
}
