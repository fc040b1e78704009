import type { Hunk } from '../../../shared/diff/hunks'
import type { LineEnding } from '../../../shared/diff/text'

export type { Hunk } from '../../../shared/diff/hunks'
export type { LineEnding } from '../../../shared/diff/text'
import type { SearchOptions, SearchResult } from './search'
export type { SearchOptions, SearchResult, SearchFileResult, SearchLine } from './search'

/** A path named by a tool call, resolved against the workspace's real root. */
export interface ResolvedPath {
  /** As the model wrote it. */
  input: string
  /** Absolute path as the OS reaches it without following a final link (`..` after a link is physical). */
  absolute: string
  /** Real path: symlinks followed (for a missing file, its deepest existing ancestor's). */
  real: string
  /** POSIX path relative to the root for paths inside; the real absolute path for paths outside. */
  display: string
  /** `..` or a symlink leads out of the workspace: the policy decides, the workspace only flags. */
  outsideWorkspace: boolean
  /** A symlink was followed on the way (inside or outside). */
  viaSymlink: boolean
  /** Matched by `.modusignore` / `.rooignore`: no tool may read, list, search or edit it. */
  ignored: boolean
  /** Protected by the policy (writes always ask). */
  protected: boolean
  kind: 'file' | 'directory' | 'other' | 'missing'
}

export type TextEncodingName = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be' | 'latin1'

/** How a text file is stored, so a write puts it back the same way. */
export interface TextFormat {
  encoding: TextEncodingName
  eol: LineEnding
  /** Unix permission bits (e.g. 0o755), null for a new file. */
  mode: number | null
}

export interface TextFile extends TextFormat {
  path: ResolvedPath
  /** Decoded text, BOM removed, line endings as on disk. */
  text: string
  size: number
  mtimeMs: number
}

export type WorkspaceErrorCode =
  | 'not_found'
  | 'is_directory'
  | 'not_a_directory'
  | 'binary'
  | 'ignored'
  | 'too_large'
  | 'exists'
  | 'outside_workspace'
  | 'invalid_path'
  | 'io'

export class WorkspaceError extends Error {
  override name = 'WorkspaceError'
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
    readonly path?: string
  ) {
    super(message)
  }
}

export interface LineRange {
  /** 1-based first line returned. */
  offset: number
  lines: string[]
  totalLines: number
  format: TextFormat
}

export interface ListEntry {
  /** Workspace-relative POSIX path (absolute when the listing is outside the workspace). */
  path: string
  isDirectory: boolean
  protected: boolean
}

export interface ListOptions {
  recursive: boolean
  /** Stop after this many entries (the result says it was truncated). */
  limit: number
  /** Skip `.gitignore`d entries (default true). `.modusignore`/`.rooignore` always apply. */
  respectGitignore?: boolean
}

export interface ListResult {
  entries: ListEntry[]
  truncated: boolean
}

/** Decides whether a workspace-relative POSIX path is protected (from the pure policy). */
export type ProtectedPathCheck = (relativePosixPath: string) => boolean

export interface WriteOptions {
  /** The approved path was inside the workspace, so the write must land there. */
  stayInside?: boolean
}

export interface Workspace {
  /** Real absolute root. */
  readonly root: string
  readonly changes: ChangeStore
  resolve(path: string): Promise<ResolvedPath>
  /** Whole text file. Refuses ignored, missing, directory and binary paths with a WorkspaceError. */
  readText(path: string, options?: { maxBytes?: number }): Promise<TextFile>
  /** Lines `offset … offset+limit−1` (1-based) without holding the rest of the file in memory. */
  readLines(path: string, offset: number, limit: number): Promise<LineRange>
  readBytes(path: string, options?: { maxBytes?: number }): Promise<{ path: ResolvedPath; bytes: Uint8Array }>
  /** Text of a file or null when it does not exist (ignored paths still refused). */
  readTextIfExists(path: string): Promise<TextFile | null>
  /**
   * Atomic (temp + fsync + rename); keeps encoding, BOM, line endings and mode; creates parents.
   * Resolves with the real path written. With `stayInside`, containment is checked again now on
   * the real parent, and a link out of the workspace (a folder or the file swapped for one since
   * the proposal) refuses the write with `outside_workspace`.
   */
  writeText(path: string, text: string, format?: Partial<TextFormat>, options?: WriteOptions): Promise<string>
  deleteFile(path: string, options?: WriteOptions): Promise<void>
  list(path: string, options: ListOptions): Promise<ListResult>
  /** Regex search (ripgrep when on PATH, else built-in; same results and order). */
  search(path: string, options: SearchOptions): Promise<SearchResult>
  /** True when `.modusignore`/`.rooignore` hide this workspace-relative path. */
  isIgnored(relativePosixPath: string, isDirectory?: boolean): boolean
  /**
   * Whether a folder (as a tool names it) is or holds, at any depth, an entry the ignore files
   * exclude: a recursive read of it would reach one. Fails closed on huge trees.
   */
  ignoredWithin(path: string): Promise<boolean>
  /** Re-reads the ignore files (after the user edits them). */
  reloadIgnoreRules(): Promise<void>
}

// ---------------------------------------------------------------- staged changes

export type ChangeKind = 'create' | 'modify' | 'delete' | 'move'

/** What an edit tool proposes; nothing is on disk until the ChangeStore accepts it. */
export interface ProposedChange {
  /** Path as the tool named it (resolved by the store). */
  path: string
  kind: ChangeKind
  /** Destination of a move. */
  moveTo?: string
  /** Text on disk when proposed (decoded, file's line endings); null for a new file. */
  original: string | null
  /** Full new text; null when the file is deleted. */
  proposed: string | null
  /** Storage of the result (defaults to the original's, or UTF-8/LF for new files). */
  format?: Partial<TextFormat>
}

export type StagedStatus = 'pending' | 'accepted' | 'rejected' | 'conflict' | 'reverted'

export interface StagedChange extends ProposedChange {
  id: string
  taskId: string
  toolName: string
  toolUseId?: string
  createdAt: number
  updatedAt: number
  /** Workspace-relative display path (and of `moveTo`). */
  displayPath: string
  displayMoveTo?: string
  outsideWorkspace: boolean
  protected: boolean
  /** Hunks of original → proposed (LF view), for review and partial acceptance. */
  hunks: Hunk[]
  status: StagedStatus
  /** Exactly what was written on accept (null: the file was deleted). */
  written?: string | null
  acceptedHunkIds?: string[]
  /** Unified diff from the proposal to what the user wrote instead, when they edited it. */
  userEdits?: string
  rejectReason?: string
  /** Why accepting (or reverting) could not proceed. */
  conflict?: string
  /** This proposal undoes that accepted change: accepting it marks that one reverted. */
  revertOf?: string
}

export interface AcceptOptions {
  /** Only these hunks (ids from `hunks`); default all. */
  hunkIds?: readonly string[]
  /** The user's edited version of the proposed text (replaces hunk selection). */
  editedContent?: string
}

export interface AcceptOutcome {
  /** applied: written as reviewed; reapplied: the file had changed and the change was merged onto it. */
  status: 'applied' | 'reapplied' | 'conflict' | 'nothing_selected'
  change: StagedChange
  /** Text for the model describing what happened (user edits included as a diff). */
  message: string
}

export interface RevertOutcome {
  status: 'reverted' | 'conflict'
  change: StagedChange
  message: string
}

export interface StageInput {
  taskId: string
  toolName: string
  toolUseId?: string
  change: ProposedChange
  /** Shown with the proposal from the start (a restore over a file changed since); the review leaves it unticked. */
  conflict?: string
  /** The id of the same proposal made before the app stopped, so its review carries on under one id. */
  id?: string
  /** The accepted change this proposal undoes (see `planRevert`). */
  revertOf?: string
}

export interface ChangeStore {
  stage(input: StageInput): Promise<StagedChange>
  get(id: string): StagedChange | undefined
  list(filter?: { taskId?: string; status?: StagedStatus }): StagedChange[]
  accept(id: string, options?: AcceptOptions): Promise<AcceptOutcome>
  reject(id: string, reason?: string): StagedChange
  /** Restores what the file was before an accepted change (never overwrites later edits silently). */
  revert(id: string): Promise<RevertOutcome>
  /**
   * What reverting an accepted change would write, as a proposal to review (original: the file now;
   * proposed: as before the change, with later edits of others kept), or why it cannot be undone.
   */
  planRevert(id: string): Promise<{ ok: true; proposal: ProposedChange } | { ok: false; reason: string }>
  /**
   * For a pending change whose file changed on disk since it was proposed: whether accepting it now
   * would conflict (else it would be merged onto the new text), and why. null when the file is as proposed against.
   */
  drift(id: string): Promise<{ conflict: boolean; message: string } | null>
  /** Called on every stage/accept/reject/revert/conflict. Returns an unsubscribe function. */
  subscribe(listener: (change: StagedChange) => void): () => void
}
