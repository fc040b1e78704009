import { restoredFilesNote } from './restored-files-note'
import type { AssistantBlock, ImageBlock, ToolResultBlock, UserBlock } from '../../../shared/agent/messages'
import { wakeableWait } from '../providers/retry'
import type { ModelRequest } from '../providers/types'
import type { TaskStatus } from '../store/task-replay'
import { resultAsText, resultText, textResult, toResultBlock } from '../ports/call-results'
import { condenseHistory, currentContextTokens, modelView, needsReduction, slideWindow } from './context-window'
import { buildEnvironmentDetails } from './environment-details'
import type { LoopDeps, RunControl } from '../ports/loop-deps'
import { closeOpenCalls, openToolUses } from './open-calls'
import type { LoopMode } from '../ports/loop-ports'
import { askUser, processCalls, reattachCall, type CallsOutcome } from './process-calls'
import { loadRulesFiles } from './rules-files'
import { forModel } from './model-images'
import { mentionBlocks } from './message-mentions'
import { errorMessage, isContextTooLong, streamTurn } from './stream-turn'
import { buildSystemPrompt } from './system-prompt'
import type { TaskSession } from '../ports/task-session'

export type RunStart =
  | {
      kind: 'new'
      text: string
      images?: ImageBlock[]
      /** An isolated task's setup command: run first, through the policy like the model's execute_command. */
      setupCommand?: string
    }
  /** A user message to a task that is idle, completed, cancelled or failed. */
  | {
      kind: 'message'
      text: string
      images?: ImageBlock[]
      /** Its user-message event was already emitted (sent while the task ran). */ alreadyShown?: boolean
    }
  /** Continue after an interruption: unanswered calls are processed again (approvals re-asked). */
  | { kind: 'resume' }
  /**
   * A command the user proposed from the app ("Merge branch", "Open a PR"): decided, approved and
   * run like the model's execute_command, in the task's terminal; no model request is made.
   */
  | { kind: 'command'; text: string; command: string; outsideSandbox?: boolean }

export interface RunOutcome {
  status: TaskStatus
  /** attempt_completion's result, for a parent waiting on this task. */
  result?: string
}

export interface AgentLoop {
  run(session: TaskSession, control: RunControl, start: RunStart): Promise<RunOutcome>
  /** The system prompt and tools a mode sends (for `modus prompt`). */
  requestPreview(
    mode: string,
    workspace: string,
    model?: string
  ): Promise<{ system: string; tools: ModelRequest['tools'] }>
}

const CONTEXT_RETRIES = 3
const MIDSTREAM_RETRIES = 3
const MIDSTREAM_RETRY_BASE_MS = 500

/** The user-message event's images field: absent when the message has none. */
const shownImages = (images: ImageBlock[] | undefined) =>
  images?.length ? { images: images.map(({ mediaType, dataBase64 }) => ({ mediaType, dataBase64 })) } : {}

const isRetryablePartial = (error: unknown): boolean => {
  const e = error as { retryable?: unknown; partial?: unknown } | null
  return e?.retryable === true && e.partial === true
}

export function createAgentLoop(deps: LoopDeps): AgentLoop {
  const now = deps.now
  const promptCache = new WeakMap<TaskSession, Map<string, string>>()

  const modeOf = (slug: string): LoopMode => deps.gate.mode(slug) ?? deps.gate.mode('code') ?? deps.gate.modes()[0]

  const systemPrompt = async (mode: LoopMode, workspace: string) =>
    buildSystemPrompt({
      mode,
      modes: deps.gate.modes(),
      workspace,
      platform: deps.platform,
      shell: deps.shell,
      rules: await loadRulesFiles(workspace, mode.slug)
    })

  const systemFor = async (session: TaskSession): Promise<string> => {
    let cache = promptCache.get(session)
    if (!cache) promptCache.set(session, (cache = new Map<string, string>()))
    const cached = cache.get(session.mode)
    if (cached) return cached
    const prompt = await systemPrompt(modeOf(session.mode), session.meta.workspace)
    cache.set(session.mode, prompt)
    return prompt
  }

  const environment = async (session: TaskSession, control: RunControl, withListing: boolean) =>
    buildEnvironmentDetails({
      now: new Date(now()),
      mode: modeOf(session.mode),
      todos: session.todos,
      terminal: deps.env.terminalSummary(session.id),
      workspaceListing: withListing
        ? await deps.env
            .listWorkspace(session.meta.workspace, control.signal)
            .catch((e: unknown) => `(listing failed: ${errorMessage(e)})`)
        : undefined
    })

  const appendUserTurn = async (
    session: TaskSession,
    control: RunControl,
    results: ToolResultBlock[],
    texts: string[],
    withListing = false
  ) => {
    const queuedTexts = session.queuedUserTexts.splice(0)
    const queued = queuedTexts.map((text) => resultText.userMessage(text))
    // Messages sent while the loop worked are messages too: their @-mentions attach what they name.
    for (const text of queuedTexts) queued.push(...(await mentionBlocks(session, deps, control, text)))
    const restored = restoredFilesNote(session.events)
    const content: UserBlock[] = [
      ...results,
      ...session.queuedUserImages.splice(0),
      ...[...(restored ? [restored] : []), ...texts, ...queued].map((text) => ({ type: 'text' as const, text })),
      { type: 'text', text: await environment(session, control, withListing) }
    ]
    session.addMessage({ role: 'user', content })
    for (const result of results) session.results.delete(result.toolUseId)
  }

  const buildRequest = async (session: TaskSession, control: RunControl, force: boolean): Promise<ModelRequest> => {
    const system = await systemFor(session)
    const tools = deps.gate.toolsForMode(session.mode, control.provider.model)
    const fixed = Math.ceil((system.length + JSON.stringify(tools).length) / 3.5)
    const tokens = currentContextTokens(session, fixed)
    if (force || needsReduction(tokens, control.provider.info)) {
      const condensed = await condenseHistory(
        session,
        control.provider.provider,
        control.provider.model,
        control.signal,
        now
      )
      if (!condensed.ok && !control.signal.aborted) slideWindow(session, now, force ? 0.75 : 0.5)
    }
    return {
      model: control.provider.model,
      system,
      messages: forModel(modelView(session), control.provider.info.supportsImages),
      tools,
      maxOutputTokens: control.provider.info.maxOutputTokens
    }
  }

  /** Caps and the mistake limit pause the loop with an approval item; the user decides. */
  const checkLimits = async (session: TaskSession, control: RunControl): Promise<'go' | 'stop' | 'cancelled'> => {
    const limits = deps.gate.limits(session.mode)
    const c = session.counters
    const pauses: Array<{
      when: boolean
      kind: 'mistake-limit' | 'request-limit' | 'cost-limit'
      what: string
      reason: string
      onApprove: (guidance?: string) => void
    }> = [
      {
        when: limits.mistakeLimit > 0 && c.mistakes >= limits.mistakeLimit,
        kind: 'mistake-limit',
        what: `mistake limit (${c.mistakes} mistakes in a row)`,
        reason: `The model made ${c.mistakes} mistakes in a row (limit ${limits.mistakeLimit}). Give it guidance (e.g. "break the task into smaller steps") or stop here.`,
        onApprove: (guidance) => {
          c.mistakes = 0
          if (guidance)
            session.addMessage({
              role: 'user',
              content: [{ type: 'text', text: resultText.userMessage(`Guidance: ${guidance}`) }]
            })
        }
      },
      {
        when: limits.maxRequests !== null && c.requests - c.requestsAtApproval >= limits.maxRequests,
        kind: 'request-limit',
        what: `request limit (${limits.maxRequests} requests)`,
        reason: `This task made ${c.requests - c.requestsAtApproval} model requests, the limit (${limits.maxRequests}). Continue for another ${limits.maxRequests}?`,
        onApprove: () => (c.requestsAtApproval = c.requests)
      },
      {
        when: limits.maxCostUsd !== null && c.costUsd !== null && c.costUsd - c.costAtApproval >= limits.maxCostUsd,
        kind: 'cost-limit',
        what: `cost limit ($${limits.maxCostUsd?.toFixed(2)})`,
        reason: `This task cost $${(c.costUsd ?? 0).toFixed(4)}, past the limit of $${limits.maxCostUsd?.toFixed(2)}. Continue?`,
        onApprove: () => (c.costAtApproval = c.costUsd ?? 0)
      }
    ]
    for (const pause of pauses) {
      if (!pause.when) continue
      const answer = await askUser(session, deps, control, {
        kind: pause.kind,
        verdict: { decision: 'ask', rule: pause.kind, reason: pause.reason },
        summary: pause.reason
      })
      if (answer.outcome === 'cancelled') return 'cancelled'
      if (pause.kind === 'mistake-limit') c.mistakes = 0
      if (answer.outcome === 'reject') {
        // The user's reason reaches the model with the next request, as a rejected call's does.
        const reason = answer.reason?.trim()
        if (reason)
          session.addMessage({
            role: 'user',
            content: [{ type: 'text', text: resultText.userMessage(resultText.pauseRejected(pause.what, reason)) }]
          })
        return 'stop'
      }
      pause.onApprove(answer.reason?.trim() || undefined)
    }
    return 'go'
  }

  const finishCalls = async (
    session: TaskSession,
    control: RunControl,
    outcome: CallsOutcome
  ): Promise<RunOutcome | null> => {
    if (outcome.kind === 'cancelled') {
      session.setStatus('cancelled')
      return { status: 'cancelled' }
    }
    if (outcome.kind === 'completed') {
      const keepGoing = await stopHooks(session, control, outcome.result)
      if (!keepGoing) {
        session.setStatus('completed')
        return { status: 'completed', result: outcome.result }
      }
      // A Stop hook's reason answers the completion: the model goes on with it.
      session.results.set(outcome.callId, textResult(outcome.callId, keepGoing, true))
    }
    const { results } = closeOpenCalls(session)
    await appendUserTurn(session, control, results, [])
    return null
  }

  /** Calls of the last message that never ran (the app stopped) go through the pipeline again. */
  const resumeOpenCalls = async (session: TaskSession, control: RunControl): Promise<RunOutcome | null> => {
    const open = openToolUses(session)
    if (open.length === 0) return null
    for (const call of open) {
      if (!session.startedCalls.has(call.id) || session.results.has(call.id)) continue
      // Some work outlives the process (a subtask): its tool takes the result, or waits for it again.
      const recovered = await reattachCall(session, call.id, call.name, deps, control)
      if (control.signal.aborted) return cancelled(session)
      const block = recovered
        ? toResultBlock(call.id, recovered)
        : textResult(call.id, resultText.interrupted(call.name), true)
      session.results.set(call.id, block)
      session.emit({
        type: 'tool-result',
        at: now(),
        callId: call.id,
        isError: block.isError,
        text: resultAsText(block),
        ...(!recovered && { outcome: 'interrupted' as const })
      })
    }
    const calls = open.map((block) => ({ callId: block.id, name: block.name, input: block.input }))
    return finishCalls(session, control, await processCalls(session, calls, 'resumed', deps, control))
  }

  /**
   * The setup command of an isolated task's worktree (e.g. `npm ci`) runs as an execute_command call
   * would: the same gate, sandbox, approval and task terminal. Its result reaches the model as context.
   */
  const runSetup = async (
    session: TaskSession,
    control: RunControl,
    command: string
  ): Promise<{ context: string } | 'cancelled'> => {
    const callId = `setup-${session.id}`
    const outcome = await processCalls(
      session,
      [{ callId, name: 'execute_command', input: { command } }],
      'setup',
      deps,
      control
    )
    if (outcome.kind === 'cancelled' || control.signal.aborted) return 'cancelled'
    const block = session.results.get(callId)
    session.results.delete(callId)
    const result = block ? resultAsText(block) : 'It did not run.'
    return {
      context: `<worktree_setup>\nThe worktree's setup command \`${command}\` ran before this task started:\n${result}\n</worktree_setup>`
    }
  }

  /** The user's proposed command: its call goes through the gate; its result ends the task (failed on an error). */
  const runProposed = async (
    session: TaskSession,
    control: RunControl,
    how: Extract<RunStart, { kind: 'command' }>
  ): Promise<RunOutcome> => {
    session.emit({ type: 'user-message', at: now(), text: how.text })
    const callId = `proposed-${session.id}`
    const input = { command: how.command, ...(how.outsideSandbox ? { outside_sandbox: true } : {}) }
    const outcome = await processCalls(session, [{ callId, name: 'execute_command', input }], 'proposed', deps, control)
    if (outcome.kind === 'cancelled' || control.signal.aborted) return cancelled(session)
    const block = session.results.get(callId)
    session.results.delete(callId)
    if (!block || block.isError) {
      session.setStatus('failed')
      return { status: 'failed' }
    }
    const result = resultAsText(block)
    session.emit({ type: 'completion', at: now(), result })
    session.setStatus('completed')
    return { status: 'completed', result }
  }

  /** A checkpoint before the turn's work; one that fails is reported in the chat, never silently missing. */
  const markTurn = async (session: TaskSession, text: string): Promise<void> => {
    if (!deps.checkpoints) return
    const label = text.length > 60 ? `${text.slice(0, 59)}…` : text
    try {
      const marker = await deps.checkpoints.beginTurn(session.id, session.meta.workspace, label)
      session.emit({
        type: 'checkpoint',
        at: now(),
        checkpointId: marker.id,
        label: marker.label,
        messageCount: session.history.length
      })
    } catch (error) {
      session.emit({
        type: 'error',
        at: now(),
        message: `No checkpoint was saved before this turn: ${errorMessage(error)}`,
        recoverable: true
      })
    }
  }

  const start = async (session: TaskSession, control: RunControl, how: RunStart): Promise<RunOutcome | null> => {
    if (how.kind === 'new' || how.kind === 'message') await markTurn(session, how.text.trim() || imageLabel(how.images))
    if (how.kind === 'new' || how.kind === 'message') session.queuedUserImages.push(...(how.images ?? []))
    if (how.kind === 'new') {
      session.emit({ type: 'user-message', at: now(), text: how.text, ...shownImages(how.images) })
      const prompt = await promptHooks(session, control, how.text)
      if (prompt.blocked) return blocked(session)
      const setup = how.setupCommand ? await runSetup(session, control, how.setupCommand) : null
      if (setup === 'cancelled') return cancelled(session)
      const mentioned = await mentionBlocks(session, deps, control, how.text)
      const context = [
        `<task>\n${how.text}\n</task>`,
        ...mentioned,
        ...(setup ? [setup.context] : []),
        ...prompt.context
      ]
      await appendUserTurn(session, control, [], context, true)
      return null
    }
    if (how.kind === 'message') {
      if (!how.alreadyShown)
        session.emit({ type: 'user-message', at: now(), text: how.text, ...shownImages(how.images) })
      const prompt = await promptHooks(session, control, how.text)
      if (prompt.blocked) return blocked(session)
      const answers = (name: string) => deps.gate.definition(name)?.answeredByUserMessage === true
      const mentioned = await mentionBlocks(session, deps, control, how.text)
      const { results, usedUserText } = closeOpenCalls(session, { text: how.text, answers })
      await appendUserTurn(session, control, results, [
        ...(usedUserText ? [] : [resultText.userMessage(how.text)]),
        ...mentioned,
        ...prompt.context
      ])
      return null
    }
    const resumed = await resumeOpenCalls(session, control)
    if (resumed) return resumed
    const last = session.history.filter((m) => !m.hidden).at(-1)
    if (last?.message.role === 'assistant') {
      await appendUserTurn(
        session,
        control,
        [],
        ['[The previous response was interrupted. Continue the task where it stopped.]']
      )
    }
    return null
  }

  /** Tasks whose last completion a Stop hook turned back (Claude Code's `stop_hook_active`). */
  const keptGoing = new WeakSet<TaskSession>()
  const hookScope = (session: TaskSession, control: RunControl) => ({
    taskId: session.id,
    mode: session.mode,
    workspace: session.meta.workspace,
    signal: control.signal
  })
  const report = (session: TaskSession, reports: readonly string[]) => {
    for (const message of reports) session.emit({ type: 'error', at: now(), message, recoverable: true })
  }

  /** UserPromptSubmit: a hook may stop the message (the model never sees it) or add context to it. */
  const promptHooks = async (
    session: TaskSession,
    control: RunControl,
    text: string
  ): Promise<{ blocked: boolean; context: string[] }> => {
    keptGoing.delete(session)
    if (!deps.hooks) return { blocked: false, context: [] }
    const outcome = await deps.hooks.userPromptSubmit(hookScope(session, control), text)
    report(session, outcome.reports)
    if (outcome.blocked) session.emit({ type: 'error', at: now(), message: outcome.blocked, recoverable: true })
    return { blocked: outcome.blocked !== undefined, context: outcome.context }
  }
  const blocked = (session: TaskSession): RunOutcome => {
    session.queuedUserImages.length = 0
    session.setStatus('idle')
    return { status: 'idle' }
  }

  /** Stop: a hook may keep the task going when it would complete; its reason is the model's next instruction. */
  const stopHooks = async (session: TaskSession, control: RunControl, result: string): Promise<string | null> => {
    if (!deps.hooks) return null
    const outcome = await deps.hooks.stop(hookScope(session, control), {
      result,
      stopHookActive: keptGoing.has(session)
    })
    report(session, outcome.reports)
    if (!outcome.keepGoing) return null
    keptGoing.add(session)
    session.emit({ type: 'error', at: now(), message: outcome.keepGoing, recoverable: true })
    return outcome.keepGoing
  }

  const run = async (session: TaskSession, control: RunControl, how: RunStart): Promise<RunOutcome> => {
    const { signal } = control
    session.setStatus('running')
    if (how.kind === 'command') return runProposed(session, control, how)
    const early = await start(session, control, how)
    if (early) return early
    for (;;) {
      if (signal.aborted) return cancelled(session)
      const limit = await checkLimits(session, control)
      if (limit === 'cancelled' || signal.aborted) return cancelled(session)
      if (limit === 'stop') {
        // Stopped at a limit by the user: not idle (nothing was finished), and resumable by a new message.
        session.setStatus('stopped')
        return { status: 'stopped' }
      }
      let request = await buildRequest(session, control, false)
      let turn = await streamTurn(session, control.provider, request, signal, now)
      for (
        let retry = 1;
        turn.kind === 'failed' && isContextTooLong(turn.errorKind) && retry <= CONTEXT_RETRIES;
        retry++
      ) {
        session.emit({
          type: 'error',
          at: now(),
          message: 'The conversation is too long for the model; reducing it and retrying.',
          recoverable: true
        })
        request = await buildRequest(session, control, true)
        turn = await streamTurn(session, control.provider, request, signal, now)
      }
      // A retryable failure after part of the answer streamed (overloaded, connection lost): the
      // provider cannot resend without duplicating text, so the loop asks again for the whole turn.
      // The cut-off message stays in the UI; the model does not see it.
      for (
        let retry = 1;
        turn.kind === 'failed' && isRetryablePartial(turn.error) && retry <= MIDSTREAM_RETRIES;
        retry++
      ) {
        const delayMs = MIDSTREAM_RETRY_BASE_MS * 2 ** (retry - 1)
        const wait = wakeableWait(delayMs, signal, deps.sleep)
        session.retryNow = wait.wake
        session.emit({
          type: 'retry',
          at: now(),
          attempt: retry,
          delayMs,
          reason: `${errorMessage(turn.error)} (after part of the answer)`
        })
        const waited = await wait.done.then(
          () => true,
          () => false
        )
        session.retryNow = null
        if (!waited) return cancelled(session)
        turn = await streamTurn(session, control.provider, request, signal, now)
      }
      if (turn.kind !== 'done') {
        if (turn.blocks.length > 0)
          session.addMessage({
            role: 'assistant',
            content: turn.kind === 'failed' ? markedCut(turn.blocks, turn.error) : turn.blocks
          })
        if (turn.kind === 'cancelled') return cancelled(session)
        session.emit({
          type: 'error',
          at: now(),
          message: describeFailure(turn.errorKind, turn.error),
          recoverable: true,
          failure: turn.errorKind
        })
        session.setStatus('failed')
        return { status: 'failed' }
      }
      if (turn.blocks.length > 0) session.addMessage({ role: 'assistant', content: turn.blocks })
      if (turn.calls.length === 0) {
        const c = session.counters
        c.noToolStreak++
        if (c.noToolStreak >= 2) c.mistakes++
        if (turn.blocks.length === 0)
          session.addMessage({ role: 'assistant', content: [{ type: 'text', text: '(empty response)' }] })
        const cut =
          turn.stopReason === 'max_tokens'
            ? ' Your response was cut off at the output token limit; keep each response shorter.'
            : ''
        await appendUserTurn(session, control, [], [resultText.noToolUsed + cut])
        continue
      }
      session.counters.noToolStreak = 0
      const done = await finishCalls(
        session,
        control,
        await processCalls(session, turn.calls, turn.messageId, deps, control)
      )
      if (done) return done
    }
  }

  const cancelled = (session: TaskSession): RunOutcome => {
    session.setStatus('cancelled')
    return { status: 'cancelled' }
  }

  return {
    run,
    async requestPreview(slug, workspace, model) {
      const mode = modeOf(slug)
      return { system: await systemPrompt(mode, workspace), tools: deps.gate.toolsForMode(mode.slug, model) }
    }
  }
}

/** A checkpoint's label for a message of images alone. */
const imageLabel = (images: ImageBlock[] | undefined): string =>
  images?.length === 1 ? 'An image' : `${images?.length ?? 0} images`

/** A failed answer kept in the history says it is incomplete, so a resumed model does not build on it as whole. */
function markedCut(blocks: AssistantBlock[], error: unknown): AssistantBlock[] {
  return [
    ...blocks,
    { type: 'text', text: `[This response was cut off by an error (${errorMessage(error)}); it is incomplete.]` }
  ]
}

function describeFailure(kind: string, error: unknown): string {
  const message = errorMessage(error)
  return kind && kind !== 'unknown' ? `${message} (${kind})` : message
}
