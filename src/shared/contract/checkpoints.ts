import { z } from 'zod'
import { ChangeView } from './approvals'
import { request } from './define'

const SkippedFile = z.object({ path: z.string(), size: z.number() })

/** A point in a task to go back to: taken before each turn and before each restore. */
export const CheckpointView = z.object({
  id: z.string(),
  taskId: z.string(),
  at: z.number(),
  label: z.string(),
  /** Files Modus changed after this point in the task. */
  changedFiles: z.number(),
  /** Files a command touched that were too large to capture (over the size setting). */
  skipped: z.array(SkippedFile),
  /** Snapshots that failed after this point (command changes not captured). */
  failures: z.array(z.string())
})
export type CheckpointView = z.infer<typeof CheckpointView>

export const RestoreSummary = z.object({
  proposed: z.number(),
  conflicts: z.number(),
  restored: z.array(z.string()),
  notRestored: z.array(z.object({ path: z.string(), reason: z.string() })),
  approvalId: z.string().optional(),
  undoCheckpointId: z.string().optional()
})
export type RestoreSummary = z.infer<typeof RestoreSummary>

/** What command snapshots capture and how much space a workspace's checkpoints may use. */
export const CheckpointSettingsInput = z
  .object({
    /** Files larger than this (MB) are skipped by command snapshots and listed. */
    maxFileMb: z.number().positive().max(1024),
    /** Space (MB) one workspace's checkpoints may use; the oldest tasks' history goes first. */
    workspaceCapMb: z.number().positive().max(1_000_000)
  })
  .strict()
export type CheckpointSettingsInput = z.infer<typeof CheckpointSettingsInput>

export const CheckpointUsage = z.object({
  settings: CheckpointSettingsInput,
  workspaces: z.array(z.object({ workspace: z.string(), bytes: z.number() })),
  /** Whether `git` was found: without it, changes made by commands are not captured (edits still are). */
  gitAvailable: z.boolean()
})
export type CheckpointUsage = z.infer<typeof CheckpointUsage>

const TaskCheckpoint = z.object({ taskId: z.string(), checkpointId: z.string() }).strict()

export const checkpointsRequests = {
  'checkpoints:list': request(z.object({ taskId: z.string() }).strict(), z.array(CheckpointView)),
  /** Opens the review with the diff from now back to the checkpoint; nothing is written until accepted. */
  'checkpoints:restore': request(TaskCheckpoint, RestoreSummary),
  /** One diff per file from the task's start to now (original = at task start, proposed = now). */
  'checkpoints:taskChanges': request(z.object({ taskId: z.string() }).strict(), z.array(ChangeView)),
  /**
   * `/checkpoint`: saves a checkpoint of the task now (between turns), listed and restorable like the
   * others; a row in the chat says how many files changed since the one before.
   */
  'checkpoints:create': request(
    z
      .object({
        taskId: z.string(),
        /** What the list calls it (`/checkpoint before the refactor`); default "Saved with /checkpoint". */
        label: z.string().max(200).optional()
      })
      .strict(),
    z.object({ checkpointId: z.string(), label: z.string(), changedSinceLast: z.number().int() })
  ),
  'checkpoints:usage': request(z.object({}).strict(), CheckpointUsage),
  'checkpoints:saveSettings': request(CheckpointSettingsInput, CheckpointUsage)
}

export const checkpointsEvents = {
  /** A task's checkpoints changed (a new one, a failure, a restore). */
  'checkpoints:changed': z.object({ taskId: z.string() })
}
