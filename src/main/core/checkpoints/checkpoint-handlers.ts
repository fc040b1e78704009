import type { AgentEvent } from '../../../shared/agent/events'
import type { Handlers } from '../../../shared/contract'
import type { ChangeView } from '../../../shared/contract/approvals'
import type { CheckpointSettingsInput, checkpointsRequests } from '../../../shared/contract/checkpoints'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { computeHunks } from '../../../shared/diff/hunks'
import type { TaskSummary } from '../../../shared/contract/task'
import type { ApprovalQueue } from '../approvals/approval-queue'
import type { EditPort } from '../ports/loop-ports'
import type { EventBus } from '../event-bus'
import { decodeText, detectEncoding } from '../workspace/encoding'
import type { Workspace } from '../workspace/types'
import type { CheckpointService } from './checkpoint-service'
import { restoreToCheckpoint } from './restore'
import type { FileVersionPair } from './workspace-checkpoints'

export type CheckpointChannels = keyof typeof checkpointsRequests

export interface CheckpointHandlerDeps {
  checkpoints: CheckpointService
  task: (taskId: string) => TaskSummary | undefined
  workspace: (root: string) => Promise<Workspace>
  edits: Pick<EditPort, 'accept' | 'reject'>
  approvals: Pick<ApprovalQueue, 'ask'>
  gitAvailable: () => Promise<boolean>
  settings: { get(): CheckpointSettingsInput; save(input: CheckpointSettingsInput): Promise<void> }
  bus?: EventBus
  /** Adds an event to a task (the row a restore leaves in the chat). */
  record?: (taskId: string, event: AgentEvent) => Promise<void>
  /** Saves a checkpoint of the task now (`/checkpoint`): the task manager's, which leaves its row in the chat. */
  create: (taskId: string, label?: string) => Promise<{ checkpointId: string; label: string; changedSinceLast: number }>
}

export function createCheckpointHandlers(deps: CheckpointHandlerDeps): Pick<Handlers, CheckpointChannels> {
  const taskOf = (taskId: string) => {
    const task = deps.task(taskId)
    if (!task) throw new UserFacingError('not_found', `No task with id ${taskId}.`)
    if (!task.workspace)
      throw new UserFacingError('not_found', `The task ${task.title} has no workspace, so it has no checkpoints.`)
    return { ...task, workspace: task.workspace }
  }
  return {
    'checkpoints:list': async ({ taskId }) => deps.checkpoints.forWorkspace(taskOf(taskId).workspace).markers(taskId),
    'checkpoints:restore': async ({ taskId, checkpointId }) => {
      const task = taskOf(taskId)
      const checkpoints = deps.checkpoints.forWorkspace(task.workspace)
      const marker = (await checkpoints.markers(taskId)).find((m) => m.id === checkpointId)
      if (!marker) throw new UserFacingError('not_found', `Task ${task.title} has no checkpoint ${checkpointId}.`)
      const summary = await restoreToCheckpoint(
        {
          checkpoints,
          workspace: await deps.workspace(task.workspace),
          edits: deps.edits,
          approvals: deps.approvals,
          record: deps.record,
          onApplied: () => deps.bus?.emit('checkpoints:changed', { taskId })
        },
        { taskId, taskTitle: task.title, mode: task.mode, checkpointId, label: marker.label }
      )
      deps.bus?.emit('checkpoints:changed', { taskId })
      return summary
    },
    'checkpoints:taskChanges': async ({ taskId }) => {
      const changes = await deps.checkpoints.forWorkspace(taskOf(taskId).workspace).taskChanges(taskId)
      return changes.map((file) => sinceStartView(taskId, file))
    },
    'checkpoints:create': async ({ taskId, label }) => {
      taskOf(taskId)
      return deps.create(taskId, label)
    },
    'checkpoints:usage': () => usage(),
    'checkpoints:saveSettings': async (input) => {
      await deps.settings.save(input)
      return usage()
    }
  }
  async function usage() {
    return {
      settings: deps.settings.get(),
      workspaces: await deps.checkpoints.usage(),
      gitAvailable: await deps.gitAvailable()
    }
  }
}

const asText = (bytes: Buffer | null): string | null => {
  if (bytes === null) return null
  const encoding = detectEncoding(bytes)
  return encoding === null ? `(binary file, ${bytes.length} bytes)` : decodeText(bytes, encoding)
}

/** A file's diff from the task's start (original) to now (proposed), shaped like any change. */
function sinceStartView(taskId: string, file: FileVersionPair): ChangeView {
  const original = asText(file.target)
  const proposed = asText(file.current)
  return {
    id: `since-start:${file.path}`,
    taskId,
    callId: '',
    path: file.path,
    operation: original === null ? 'create' : proposed === null ? 'delete' : 'modify',
    original,
    proposed,
    hunks: computeHunks(original ?? '', proposed ?? ''),
    status: 'applied',
    auto: false,
    createdAt: 0
  }
}

/**
 * The files a task's commands changed (a `sed -i`, a generator), as changes in the task's list: what
 * each command run did to each file, seen by the snapshots around it. They were never staged, so
 * they cannot be reverted one by one (a checkpoint restore puts them back).
 */
export async function commandChangeViews(
  checkpoints: CheckpointService,
  workspace: string,
  taskId: string
): Promise<ChangeView[]> {
  const found = await checkpoints.forWorkspace(workspace).commandChanges(taskId)
  return found.map((file) => {
    const original = asText(file.before)
    const written = asText(file.after)
    return {
      id: `command:${file.action}:${file.path}`,
      taskId,
      callId: file.callId ?? '',
      path: file.path,
      operation: original === null ? 'create' : written === null ? 'delete' : 'modify',
      original,
      proposed: written,
      written,
      hunks: computeHunks(original ?? '', written ?? ''),
      status: 'applied',
      auto: true,
      tool: 'execute_command',
      byCommand: file.command ?? 'a command',
      createdAt: file.at
    } satisfies ChangeView
  })
}
