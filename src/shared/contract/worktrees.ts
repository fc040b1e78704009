import { z } from 'zod'
import { request } from './define'

/**
 * Isolated tasks: each runs in its own git worktree (under the app data dir, on a branch
 * `modus/<slug>` from the HEAD of the open folder), so several can run at once without touching the
 * user's working tree, index, HEAD or branch. Bringing a result back is a review of the branch
 * against `baseCommit`.
 */

/** A name the user gives a worktree task: becomes the slug of its folder and branch. */
export const WorktreeName = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'Letters, digits, spaces, dots, dashes and underscores only.')

/**
 * - `queued`: waits for a slot (at most `maxConcurrent` isolated tasks run at once);
 * - `running`, `waiting` (for the user: an approval or a question), `done`, `failed`;
 * - `stopped`: cancelled, or cut off by a crash and not resumed yet (resume continues it in its worktree).
 */
export const WorktreeTaskState = z.enum(['queued', 'running', 'waiting', 'done', 'failed', 'stopped'])
export type WorktreeTaskState = z.infer<typeof WorktreeTaskState>

/** How the setup command went in this worktree (it runs through the policy before the task starts). */
export const WorktreeSetup = z.object({
  command: z.string(),
  status: z.enum(['pending', 'running', 'passed', 'failed', 'refused']),
  exitCode: z.number().nullable().optional(),
  /** Why it failed or was refused, in the user's words. */
  message: z.string().optional()
})
export type WorktreeSetup = z.infer<typeof WorktreeSetup>

export const WorktreeTask = z.object({
  /** The worktree's own id (stable while queued, before the task exists). */
  id: z.string(),
  /** The task running in it; absent while queued. */
  taskId: z.string().optional(),
  name: z.string(),
  /** The task's first line. */
  title: z.string(),
  mode: z.string(),
  /** `modus/<slug>`. */
  branch: z.string(),
  /** The commit the branch started from (HEAD of the main tree when the task was started). */
  baseCommit: z.string(),
  /** The worktree folder (the task's workspace, terminal cwd and checkpoints root). */
  path: z.string(),
  /** The user's repository (its top level) the worktree belongs to. */
  repoRoot: z.string(),
  state: WorktreeTaskState,
  /** Files that differ from `baseCommit` (committed on the branch, changed or new in the worktree). */
  changedFiles: z.number(),
  /** null when a model's price is unknown. */
  costUsd: z.number().nullable(),
  createdAt: z.number(),
  /** First of the task's ports: `PORT` and `MODUS_PORT_BASE` in its shell; the block is `portBase`…`portBase+portCount-1`. */
  portBase: z.number(),
  portCount: z.number(),
  /** Uncommitted changes of the main tree were copied in when it was made. */
  carriedChanges: z.boolean(),
  /** Ignored files copied in from the main tree (the workspace's list). */
  copiedFiles: z.array(z.string()),
  setup: WorktreeSetup.optional(),
  /** The Orchestrator task that started it as an isolated subtask. */
  parentTaskId: z.string().optional(),
  /** Its folder was pruned (its changes were committed on the branch first): the branch stays for review. */
  pruned: z.boolean(),
  /** Why its task could not start (state `failed`; nothing ran). */
  startError: z.string().optional()
})
export type WorktreeTask = z.infer<typeof WorktreeTask>

/** A worktree folder under the app data dir that no task record owns: listed, never deleted unasked. */
export const OrphanWorktree = z.object({
  path: z.string(),
  /** Its branch when git still knows the worktree; null otherwise. */
  branch: z.string().nullable(),
  /** The repository it was made from, when known. */
  repoRoot: z.string().nullable(),
  bytes: z.number(),
  reason: z.string()
})
export type OrphanWorktree = z.infer<typeof OrphanWorktree>

export const WorktreeSettingsInput = z
  .object({
    /** Ignored files (paths relative to the repository) copied into each new worktree; nothing else is. */
    copyFiles: z.array(z.string().min(1).max(500)).max(200),
    /** Run in each new worktree before its task starts (e.g. `npm ci`); empty = none. */
    setupCommand: z.string().max(2000),
    /** Isolated tasks that run at once; more wait in the queue. */
    maxConcurrent: z.number().int().min(1).max(32),
    /** Worktrees of finished tasks older than this many days are pruned (0 = never by age). */
    pruneAfterDays: z.number().min(0).max(3650),
    /** Space all worktrees may use before the oldest finished ones are pruned (MB; 0 = no cap). */
    maxTotalMb: z.number().min(0).max(10_000_000)
  })
  .strict()
export type WorktreeSettingsInput = z.infer<typeof WorktreeSettingsInput>

export const WorktreeSettings = WorktreeSettingsInput.extend({
  /** The repository these per-repository settings (copyFiles, setupCommand) belong to; null when no git repository is open. */
  repoRoot: z.string().nullable(),
  /** Ignored files present in the main tree that projects usually need (`.env*` and similar): offered, never copied unless listed. */
  offeredFiles: z.array(z.string()),
  /** Space all worktrees use now (bytes). */
  spaceUsedBytes: z.number(),
  /** Where the worktrees live. */
  dir: z.string()
})
export type WorktreeSettings = z.infer<typeof WorktreeSettings>

export const WorktreeStartInput = z
  .object({
    text: z.string().min(1).max(200_000),
    mode: z.string().optional(),
    /** Default: made from the task's first words. A taken name gets a number. */
    name: WorktreeName.optional(),
    /** Copy the main tree's uncommitted changes (tracked and new, not ignored) into the worktree. */
    carryChanges: z.boolean().default(false)
  })
  .strict()
export type WorktreeStartInput = z.input<typeof WorktreeStartInput>

export const worktreesRequests = {
  /** Makes a worktree of the open folder's repository and starts (or queues) a task in it. */
  'worktrees:start': request(WorktreeStartInput, WorktreeTask),
  'worktrees:list': request(z.object({}).strict(), z.array(WorktreeTask)),
  /** Worktree folders no task owns (a crash between steps, a deleted task). */
  'worktrees:orphans': request(z.object({}).strict(), z.array(OrphanWorktree)),
  /** Stops the task if it runs, removes the worktree and deletes its branch. The UI confirms first. */
  'worktrees:discard': request(
    z.object({ id: z.string() }).strict(),
    z.object({ removed: z.boolean(), branchDeleted: z.boolean() })
  ),
  /** Removes an orphaned worktree folder (and its branch when git knows it). The UI confirms first. */
  'worktrees:discardOrphan': request(z.object({ path: z.string() }).strict(), z.object({ removed: z.boolean() })),
  'worktrees:settings': request(z.object({}).strict(), WorktreeSettings),
  'worktrees:saveSettings': request(WorktreeSettingsInput, WorktreeSettings),
  /** Prunes finished tasks' worktrees by age and size now; says which went. */
  'worktrees:prune': request(
    z.object({}).strict(),
    z.object({ removed: z.array(z.string()), spaceUsedBytes: z.number() })
  )
}

export const worktreesEvents = {
  /** A worktree task was added, changed state or was removed: the whole list, so every tab resyncs. */
  'worktrees:changed': z.array(WorktreeTask)
}
