import type { ToolResultBlock } from '../../../shared/agent/messages'
import type { ApprovalKind } from '../../../shared/agent/events'
import type { ChangeView } from '../../../shared/contract/approvals'
import { refusedResult, resultText, textResult, toResultBlock, resultAsText, resultImages } from '../ports/call-results'
import type { ApprovalAnswer } from '../approvals/approval-queue'
import type { LoopDeps, RunControl } from '../ports/loop-deps'
import type { PolicyVerdict, ToolRunContext } from '../ports/loop-ports'
import { mentionBlocks } from './message-mentions'
import type { CompleteCall } from './stream-turn'
import type { TaskSession } from '../ports/task-session'
import { isolateNewTask } from '../../../shared/policy/new-task'
import type { ToolDefinition } from '../../../shared/tools/types'
import type { CommandRunPlan } from '../../../shared/policy/run-plan'
import type { HookScope, ToolCallFacts } from '../hooks/hook-service'
import { verdictWithHooks } from '../hooks/tool-hooks'
import {
  textOutput,
  type EditToolExecutor,
  type FileToolContext,
  type FullToolContext,
  type TaskToolContext,
  type TaskToolExecutor,
  type TaskToolOutcome,
  type ToolExecutor,
  type ToolOutput
} from '../ports/tool-types'

/** What the tool card needs beyond the result text: why a call did not run, a command's exit code. */
type ResultFacts = { outcome?: 'skipped' | 'cancelled' | 'interrupted'; exitCode?: number }
const SKIPPED: ResultFacts = { outcome: 'skipped' }
const CANCELLED: ResultFacts = { outcome: 'cancelled' }

export type CallsOutcome =
  { kind: 'continue' } | { kind: 'completed'; callId: string; result: string } | { kind: 'cancelled' }

interface MessageState {
  messageId: string
  /** The tool whose rejection skips the rest of the message. */
  rejectedTool: string | null
  turnApproved: boolean
  /** Calls after one that hands the conversation over (new_task), with why they are not run. */
  skipped: ReadonlyMap<string, string>
  /** The message's call ids in order: how many come after the one being asked about. */
  order: readonly string[]
  /** Calls still running beside the next ones (isolated subtasks): each settles its own result. */
  parallel: Promise<CallsOutcome>[]
}

/**
 * Each complete call of one assistant message, in order: validate → decide → approval when asked →
 * execute → result. Results land in `session.results` (and as events) as they are produced.
 */
export async function processCalls(
  session: TaskSession,
  calls: CompleteCall[],
  messageId: string,
  deps: LoopDeps,
  control: RunControl
): Promise<CallsOutcome> {
  const state: MessageState = {
    messageId,
    rejectedTool: null,
    turnApproved: false,
    skipped: new Map(
      isolateNewTask(calls, (call) => deps.gate.definition(call.name)?.lastInMessage === true).skipped.map(
        ({ call, error }) => [call.callId, error]
      )
    ),
    order: calls.map((call) => call.callId),
    parallel: []
  }
  const outcome = await processInOrder(session, calls, state, deps, control)
  return state.parallel.length === 0 ? outcome : settleParallel(session, state.parallel, outcome, control)
}

async function processInOrder(
  session: TaskSession,
  calls: CompleteCall[],
  state: MessageState,
  deps: LoopDeps,
  control: RunControl
): Promise<CallsOutcome> {
  for (const call of calls) {
    if (session.results.has(call.callId)) continue
    if (control.signal.aborted) return { kind: 'cancelled' }
    const outcome = await processCall(session, call, state, deps, control)
    if (outcome.kind !== 'continue') return outcome
  }
  return { kind: 'continue' }
}

/**
 * The calls that ran side by side (isolated subtasks) end before the next request: the task waits
 * for every one of them (a cancel ends them all), each landing its own result.
 */
async function settleParallel(
  session: TaskSession,
  parallel: Promise<CallsOutcome>[],
  sequential: CallsOutcome,
  control: RunControl
): Promise<CallsOutcome> {
  if (!control.signal.aborted) session.setStatus('waiting')
  const outcomes = await Promise.all(parallel)
  if (sequential.kind !== 'continue') return sequential
  if (control.signal.aborted || outcomes.some((outcome) => outcome.kind === 'cancelled')) return { kind: 'cancelled' }
  session.setStatus('running')
  return { kind: 'continue' }
}

async function processCall(
  session: TaskSession,
  call: CompleteCall,
  state: MessageState,
  deps: LoopDeps,
  control: RunControl
): Promise<CallsOutcome> {
  const now = deps.now
  const finish = (block: ToolResultBlock, facts: ResultFacts = {}) => {
    session.results.set(call.callId, block)
    session.emit({
      type: 'tool-result',
      at: now(),
      callId: call.callId,
      isError: block.isError,
      text: resultAsText(block),
      images: resultImages(block),
      ...facts
    })
    return { kind: 'continue' } as const
  }
  const mistake = (text: string) => {
    session.counters.mistakes++
    return finish(textResult(call.callId, text, true))
  }

  session.emit({
    type: 'tool-call',
    at: now(),
    messageId: state.messageId,
    callId: call.callId,
    name: call.name,
    args: call.input
  })
  if (state.rejectedTool)
    return finish(refusedResult(call.callId, resultText.skippedAfterRejection(state.rejectedTool)), SKIPPED)
  const skippedBecause = state.skipped.get(call.callId)
  if (skippedBecause) return finish(textResult(call.callId, skippedBecause, true), SKIPPED)
  if (call.parseError) return mistake(resultText.invalidArguments(call.name, call.parseError))

  const validated = deps.gate.validate(call.name, call.input, session.mode, control.provider.model)
  if (!validated.ok) return mistake(validated.error)
  const { name, params, definition } = validated
  const executor = deps.tools.executor(name)
  if (!executor)
    return finish(textResult(call.callId, `The tool ${name} is not available in this build of Modus.`, true))
  const runContext: ToolRunContext = {
    taskId: session.id,
    callId: call.callId,
    taskTitle: session.meta.title,
    workspace: session.meta.workspace,
    mode: session.mode,
    signal: control.signal,
    modelSupportsImages: control.provider.info.supportsImages,
    onProgress: (progress) => session.emit({ type: 'tool-progress', at: now(), callId: call.callId, ...progress }),
    onOutput: (output) => session.emit({ type: 'tool-output', callId: call.callId, ...output })
  }
  const runTask = () =>
    runTaskTool(session, call.callId, params, executor as TaskToolExecutor<unknown>, deps, control, finish, (running) =>
      state.parallel.push(running)
    )

  // Tools that change only the conversation run at once: no repetition check, nothing to approve.
  if (runsUnchecked(definition)) return runTask()

  if (!deps.gate.repetitionCheck(session.id, name, params)) {
    const answer = await askUser(session, deps, control, {
      kind: 'repetition',
      callId: call.callId,
      messageId: state.messageId,
      tool: name,
      args: params,
      verdict: {
        decision: 'ask',
        rule: 'repetition-limit',
        reason: `The same ${name} call was repeated several times in a row.`
      }
    })
    if (answer.outcome === 'cancelled') return { kind: 'cancelled' }
    if (answer.outcome === 'reject')
      return finish(
        refusedResult(
          call.callId,
          answer.unattended ? resultText.notApproved() : resultText.repetition(name, answer.reason)
        )
      )
    deps.gate.resetRepetition(session.id)
  }

  const hookScope: HookScope = {
    taskId: session.id,
    mode: session.mode,
    workspace: session.meta.workspace,
    signal: control.signal
  }
  const hookCall = { callId: call.callId, tool: name, params }
  const decided = await deps.gate.decide(
    { name, params, definition },
    { taskId: session.id, mode: session.mode, workspace: session.meta.workspace }
  )
  const { verdict, reports } = await verdictWithHooks(deps.hooks, hookScope, hookCall, decided)
  reportHooks(session, deps, reports)
  session.emit({
    type: 'tool-decision',
    at: now(),
    callId: call.callId,
    decision: verdict.decision,
    rule: verdict.rule,
    reason: verdict.reason
  })
  if (verdict.decision === 'deny')
    return finish(refusedResult(call.callId, resultText.policyDenied(verdict.rule, verdict.reason)))

  const mustAsk = verdict.decision === 'ask' && !state.turnApproved

  if (definition.effect === 'edit') {
    const edit = executor as EditToolExecutor<unknown, FileToolContext>
    const withNotes = (block: ToolResultBlock) => withHookNotes(session, deps, hookScope, hookCall, block)
    return runEdit(
      session,
      call.callId,
      name,
      params,
      edit,
      verdict,
      mustAsk,
      state,
      deps,
      control,
      runContext,
      finish,
      withNotes
    )
  }

  let feedback: string | undefined
  if (mustAsk) {
    const answer = await askUser(session, deps, control, {
      kind: 'tool',
      callId: call.callId,
      messageId: state.messageId,
      laterInTurn: laterInTurn(state, call.callId),
      tool: name,
      args: params,
      verdict
    })
    if (answer.outcome === 'cancelled') return { kind: 'cancelled' }
    if (answer.outcome === 'reject') {
      state.rejectedTool = name
      return finish(refusedResult(call.callId, refusalText(answer)))
    }
    if (answer.scope === 'turn') state.turnApproved = true
    feedback = answer.reason?.trim() || undefined
    await saveAlwaysAllow(session, deps, answer)
  }

  if (definition.effect === 'task-control') return runTask()

  session.emit({ type: 'tool-started', at: now(), callId: call.callId })
  let block: ToolResultBlock
  const facts: ResultFacts = {}
  try {
    const immediate = executor as ToolExecutor<unknown, FullToolContext>
    // The executor runs the verdict's plan: nothing downstream decides again.
    let output = await immediate.execute(
      params,
      await deps.tools.context({ ...runContext, commandPlan: verdict.run, plan: verdict.plan })
    )
    if (output.needsApproval) {
      // The plan found at run time what the text did not show (a name meaning something else in the shell).
      const asked: PolicyVerdict = {
        decision: 'ask',
        rule: output.needsApproval.rule,
        reason: output.needsApproval.reason
      }
      session.emit({ type: 'tool-decision', at: now(), callId: call.callId, ...asked })
      const answer = await askUser(session, deps, control, {
        kind: 'tool',
        callId: call.callId,
        messageId: state.messageId,
        tool: name,
        args: params,
        verdict: asked
      })
      if (answer.outcome === 'cancelled') return { kind: 'cancelled' }
      if (answer.outcome === 'reject') {
        state.rejectedTool = name
        return finish(refusedResult(call.callId, refusalText(answer)))
      }
      feedback = answer.reason?.trim() || undefined
      output = await immediate.execute(
        params,
        await deps.tools.context({
          ...runContext,
          commandPlan: verdict.run,
          plan: asWritten(verdict.plan, definition, params)
        })
      )
    }
    block = toResultBlock(call.callId, output)
    if (output.exitCode !== undefined) facts.exitCode = output.exitCode
  } catch (error) {
    if (control.signal.aborted) {
      finish(textResult(call.callId, resultText.cancelled(name), true), CANCELLED)
      return { kind: 'cancelled' }
    }
    block = textResult(call.callId, `The tool failed: ${error instanceof Error ? error.message : String(error)}`, true)
  }
  if (feedback)
    block = { ...block, content: [{ type: 'text', text: resultText.approvedWithFeedback(feedback) }, ...block.content] }
  if (!block.isError) session.counters.mistakes = 0
  if (control.signal.aborted) facts.outcome = 'cancelled'
  else block = await withHookNotes(session, deps, hookScope, hookCall, block)
  finish(block, facts)
  session.checkpoint()
  return control.signal.aborted ? { kind: 'cancelled' } : { kind: 'continue' }
}

/** Hooks that failed, hung or printed what cannot be read are told to the user in the chat. */
function reportHooks(session: TaskSession, deps: LoopDeps, reports: readonly string[]): void {
  for (const message of reports) session.emit({ type: 'error', at: deps.now(), message, recoverable: true })
}

/** PostToolUse: what the hooks say after a call ran (a formatter's, a linter's output) goes to the model with its result. */
async function withHookNotes(
  session: TaskSession,
  deps: LoopDeps,
  scope: HookScope,
  call: ToolCallFacts,
  block: ToolResultBlock
): Promise<ToolResultBlock> {
  if (!deps.hooks) return block
  const { notes, reports } = await deps.hooks.postToolUse(scope, call, {
    text: resultAsText(block),
    isError: block.isError === true
  })
  reportHooks(session, deps, reports)
  return notes.length === 0
    ? block
    : { ...block, content: [...block.content, ...notes.map((text) => ({ type: 'text' as const, text }))] }
}

/** The plan of a command the user approved: the text as the model wrote it, nothing to check or rewrite. */
function asWritten(
  plan: CommandRunPlan | undefined,
  definition: ToolDefinition,
  params: unknown
): CommandRunPlan | undefined {
  const line = definition.commandLine?.(params)
  return plan && line ? { ...plan, command: line.command, names: [], git: [] } : undefined
}

/** A refusal: by the user, or by nobody (a non-interactive run, where nobody could approve). */
const refusalText = (answer: ApprovalAnswer): string =>
  answer.outcome === 'reject' && answer.unattended
    ? resultText.notApproved()
    : resultText.userDenied(answer.outcome === 'reject' ? answer.reason : undefined)

/** A task-control tool without an approval toggle changes only the conversation: nothing to check or ask. */
const runsUnchecked = (definition: ToolDefinition): boolean =>
  definition.effect === 'task-control' && !definition.approvalToggle

function taskToolContext(session: TaskSession, callId: string, deps: LoopDeps, control: RunControl): TaskToolContext {
  return {
    taskId: session.id,
    signal: control.signal,
    modelSupportsImages: control.provider.info.supportsImages,
    callId,
    session,
    loop: deps,
    control,
    attachMentions: (text) => mentionBlocks(session, deps, control, text)
  }
}

/** A started call without a result after a restart: what its tool can still recover, or null. */
export async function reattachCall(
  session: TaskSession,
  callId: string,
  name: string,
  deps: LoopDeps,
  control: RunControl
): Promise<ToolOutput | null> {
  const executor = deps.tools.executor(name)
  if (!executor || !('reattach' in executor) || !executor.reattach) return null
  return executor.reattach(taskToolContext(session, callId, deps, control))
}

/** Task-control tools act on the task itself: they answer, end the turn, or see the run cancelled. */
async function runTaskTool(
  session: TaskSession,
  callId: string,
  params: unknown,
  executor: TaskToolExecutor<unknown>,
  deps: LoopDeps,
  control: RunControl,
  finish: (block: ToolResultBlock, facts?: ResultFacts) => CallsOutcome,
  runBeside: (running: Promise<CallsOutcome>) => void
): Promise<CallsOutcome> {
  const outcome = await executor.execute(params, taskToolContext(session, callId, deps, control))
  if (outcome.kind !== 'parallel') return taskOutcome(callId, outcome, finish)
  // Its result lands when it ends; the message's next call goes on meanwhile.
  runBeside(
    outcome.outcome.then(
      (ended) => taskOutcome(callId, ended, finish),
      (error: unknown) =>
        finish(textResult(callId, `The tool failed: ${error instanceof Error ? error.message : String(error)}`, true))
    )
  )
  return { kind: 'continue' }
}

function taskOutcome(
  callId: string,
  outcome: Exclude<TaskToolOutcome, { kind: 'parallel' }>,
  finish: (block: ToolResultBlock, facts?: ResultFacts) => CallsOutcome
): CallsOutcome {
  switch (outcome.kind) {
    case 'result':
      return finish(toResultBlock(callId, outcome.output))
    case 'completed':
      return { kind: 'completed', callId, result: outcome.result }
    case 'cancelled':
      if (outcome.output) finish(toResultBlock(callId, outcome.output), CANCELLED)
      return { kind: 'cancelled' }
  }
}

type Proposal = { ok: true; changes: ChangeView[]; notes: string[] } | { ok: false; output: ToolOutput }

/** The edit tool's proposal, staged; a failure to prepare it is told to the model, not thrown. */
async function stagedProposal(
  name: string,
  params: unknown,
  executor: EditToolExecutor<unknown, FileToolContext>,
  callId: string,
  deps: LoopDeps,
  runContext: ToolRunContext,
  reuseIds: readonly string[]
): Promise<Proposal> {
  try {
    const proposal = await executor.propose(params, await deps.tools.context(runContext))
    if (!proposal.ok) return proposal
    const stageContext = {
      taskId: runContext.taskId,
      callId,
      toolName: name,
      workspace: runContext.workspace,
      reuseIds
    }
    return { ok: true, changes: await deps.edits.stage(proposal.changes, stageContext), notes: proposal.notes }
  } catch (error) {
    return {
      ok: false,
      output: textOutput(`The edit could not be prepared: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

/** Ask → the approval item is the diff review; Allow → written at once and listed; both keep the original for revert. */
async function runEdit(
  session: TaskSession,
  callId: string,
  name: string,
  params: unknown,
  executor: EditToolExecutor<unknown, FileToolContext>,
  verdict: PolicyVerdict,
  mustAsk: boolean,
  state: MessageState,
  deps: LoopDeps,
  control: RunControl,
  runContext: ToolRunContext,
  finish: (block: ToolResultBlock, facts?: ResultFacts) => CallsOutcome,
  withNotes: (block: ToolResultBlock) => Promise<ToolResultBlock>
): Promise<CallsOutcome> {
  const now = deps.now
  // A review is not a start: nothing is written before the answer, so an edit whose review was
  // pending when the app stopped is proposed again on resume (under the same change ids).
  const started = () => session.emit({ type: 'tool-started', at: now(), callId })
  if (!mustAsk) started()
  const proposal = await stagedProposal(
    name,
    params,
    executor,
    callId,
    deps,
    runContext,
    unreviewedChangeIds(session, callId)
  )
  if (!proposal.ok) {
    session.counters.mistakes++
    return finish(toResultBlock(callId, proposal.output))
  }
  const emitChange = (change: ChangeView, auto: boolean, detail?: string) =>
    session.emit({
      type: 'change',
      at: now(),
      changeId: change.id,
      callId,
      path: change.path,
      status: change.status,
      auto,
      detail,
      ...(change.acceptedHunks !== undefined && {
        hunksAccepted: change.acceptedHunks,
        hunksTotal: change.hunks.length
      }),
      ...(change.editedByUser && { editedByUser: true })
    })
  for (const change of proposal.changes) emitChange(change, !mustAsk)

  let decisions = new Map<string, { acceptedHunks?: string[]; editedContent?: string }>()
  let feedback: string | undefined
  if (mustAsk) {
    const answer = await askUser(session, deps, control, {
      kind: 'edit',
      callId,
      messageId: state.messageId,
      laterInTurn: laterInTurn(state, callId),
      tool: name,
      args: params,
      verdict,
      changes: proposal.changes
    })
    if (answer.outcome !== 'approve') {
      for (const change of proposal.changes) emitChange(await deps.edits.reject(change.id), false)
      if (answer.outcome === 'cancelled') {
        finish(textResult(callId, resultText.cancelled(name), true), CANCELLED)
        return { kind: 'cancelled' }
      }
      state.rejectedTool = name
      return finish(refusedResult(callId, refusalText(answer)))
    }
    if (answer.scope === 'turn') state.turnApproved = true
    decisions = new Map((answer.changes ?? []).map(({ changeId, ...rest }) => [changeId, rest]))
    feedback = answer.reason?.trim() || undefined
    await saveAlwaysAllow(session, deps, answer)
    started()
  }
  const texts: string[] = [...proposal.notes]
  // Why a change was not written comes first: a reader of the first line (the CLI) must see the reason, not "Block 1 applied".
  const failures: string[] = []
  for (const change of proposal.changes) {
    try {
      const accepted = await deps.edits.accept(change.id, decisions.get(change.id) ?? {}, !mustAsk)
      emitChange(accepted.change, !mustAsk, accepted.change.conflict)
      if (accepted.ok) texts.push(accepted.text)
      else failures.push(accepted.text)
    } catch (error) {
      failures.push(`${change.path}: not written — ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const failed = failures.length > 0
  texts.unshift(...failures)
  if (feedback) texts.unshift(resultText.approvedWithFeedback(feedback))
  if (failed) session.counters.mistakes++
  else session.counters.mistakes = 0
  finish(await withNotes(textResult(callId, texts.join('\n\n'), failed)))
  session.checkpoint()
  return { kind: 'continue' }
}

/** This call's proposals the log shows as still awaiting review (proposed before the app stopped). */
function unreviewedChangeIds(session: TaskSession, callId: string): string[] {
  const last = new Map<string, string>()
  for (const event of session.events) {
    if (event.type === 'change' && event.callId === callId) last.set(event.changeId, event.status)
  }
  return [...last].filter(([, status]) => status === 'proposed').map(([id]) => id)
}

async function saveAlwaysAllow(session: TaskSession, deps: LoopDeps, answer: ApprovalAnswer): Promise<void> {
  if (answer.outcome !== 'approve' || answer.alwaysAllow === undefined || answer.alwaysAllow === null) return
  try {
    await deps.gate.saveRule(session.mode, answer.alwaysAllow, session.id)
  } catch (error) {
    session.emit({
      type: 'error',
      at: deps.now(),
      message: `The "always allow" rule was not saved: ${error instanceof Error ? error.message : String(error)}`,
      recoverable: true
    })
  }
}

const laterInTurn = (state: MessageState, callId: string): number =>
  state.order.length - 1 - state.order.indexOf(callId)

export interface AskSpec {
  kind: ApprovalKind
  callId?: string
  messageId?: string
  laterInTurn?: number
  tool?: string
  args?: unknown
  verdict: PolicyVerdict
  changes?: ChangeView[]
  summary?: string
}

/** Puts an item in the approval queue, records it, waits; cancelling the run answers `cancelled`. */
export async function askUser(
  session: TaskSession,
  deps: LoopDeps,
  control: RunControl,
  spec: AskSpec
): Promise<ApprovalAnswer> {
  const summary = spec.summary ?? (spec.tool ? summarizeCall(deps, spec.tool, spec.args) : spec.verdict.reason)
  const { item, answer } = deps.approvals.ask({
    taskId: session.id,
    taskTitle: session.meta.title,
    kind: spec.kind,
    mode: session.mode,
    callId: spec.callId,
    messageId: spec.messageId,
    laterInTurn: spec.laterInTurn,
    tool: spec.tool,
    args: spec.args,
    summary,
    rule: spec.verdict.rule,
    reason: spec.verdict.reason,
    changes: spec.changes,
    suggestedRule: spec.verdict.suggestedRule
  })
  session.emit({
    type: 'approval-requested',
    at: deps.now(),
    approvalId: item.id,
    callId: spec.callId,
    kind: spec.kind,
    summary,
    rule: spec.verdict.rule,
    reason: spec.verdict.reason
  })
  session.setStatus('waiting')
  const onAbort = () =>
    deps.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call', reason: '__cancelled__' })
  control.signal.addEventListener('abort', onAbort, { once: true })
  let result = await answer
  control.signal.removeEventListener('abort', onAbort)
  if (control.signal.aborted) result = { outcome: 'cancelled' }
  session.emit({
    type: 'approval-resolved',
    at: deps.now(),
    approvalId: item.id,
    outcome: result.outcome === 'approve' ? 'approved' : result.outcome === 'reject' ? 'rejected' : 'cancelled',
    reason: result.outcome === 'cancelled' ? undefined : result.reason
  })
  session.checkpoint()
  if (result.outcome !== 'cancelled') session.setStatus('running')
  return result
}

function summarizeCall(deps: LoopDeps, tool: string, args: unknown): string {
  const summary = deps.gate.summarize?.(tool, args)
  if (summary) return summary
  const text = JSON.stringify(args ?? {})
  return `${tool} ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`
}
