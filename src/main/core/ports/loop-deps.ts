import type { HookPort } from './hook-port'
import type { MentionPort } from './mention-port'
import type { TodoItem } from '../store/task-replay'
import type { ApprovalQueue } from '../approvals/approval-queue'
import type { EditPort, EnvironmentPort, ProviderPort, ToolGate, ToolPort } from './loop-ports'
import type { TaskSession } from './task-session'

export interface SubtaskRequest {
  callId: string
  mode: string
  message: string
  todos?: TodoItem[]
  /** Run in its own git worktree (beside the other isolated subtasks of the message). */
  isolated?: boolean
}

export interface SubtaskOutcome {
  childId: string
  status: 'completed' | 'failed' | 'cancelled'
  result: string
  /** An isolated subtask's worktree once it ended: its branch and how many files differ from its base. */
  worktree?: { branch: string; changedFiles: number; path: string }
}

/** Starts a child task and resolves when it completes (the task manager implements it). */
export interface SubtaskPort {
  run(parent: TaskSession, request: SubtaskRequest, signal: AbortSignal): Promise<SubtaskOutcome>
  /**
   * After a restart: the child a new_task call started, finished or waited for again (resumed if
   * it stopped too). Null when that call never got as far as starting a child.
   */
  reattach(parent: TaskSession, callId: string, signal: AbortSignal): Promise<SubtaskOutcome | null>
}

/** Checkpoints: a marker before each turn (or when the user saves one), so the files can be restored to it. */
export interface TurnCheckpoints {
  beginTurn(taskId: string, workspace: string, label: string): Promise<{ id: string; label: string }>
  /** Files Modus changed in the task since its latest checkpoint. */
  changedSinceLast(taskId: string, workspace: string): Promise<number>
}

export interface LoopDeps {
  gate: ToolGate
  tools: ToolPort
  edits: EditPort
  env: EnvironmentPort
  approvals: ApprovalQueue
  subtasks: SubtaskPort
  now: () => number
  platform: string
  shell: string
  checkpoints?: TurnCheckpoints
  /** The user's hooks (PreToolUse, PostToolUse, UserPromptSubmit, Stop); absent → none run. */
  hooks?: HookPort
  /** Attaches what a user message's @-mentions name; absent → mentions stay plain text. */
  mentions?: MentionPort
  /** Waits before asking again for a turn cut off mid-answer; rejects when `signal` aborts. Default: a timer (tests pass the provider retry's sleep). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** One run of the loop: cancelled through `signal`; follow-up answers arrive through `nextAnswer`. */
export interface RunControl {
  signal: AbortSignal
  provider: ProviderPort
  /** The user's next message, for a follow-up question; `withdraw` when it was answered otherwise. */
  nextAnswer(): { answer: Promise<{ text: string; mode?: string }>; withdraw(): void }
}
