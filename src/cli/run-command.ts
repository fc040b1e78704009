import { promises as fs } from 'node:fs'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import type { AgentEvent } from '../shared/agent/events'
import type { ImageAttachment } from '../shared/agent/images'
import type { ApprovalItem } from '../shared/contract/approvals'
import type { McpSnapshot } from '../shared/contract/mcp'
import type { TaskSummary } from '../shared/contract/task'
import { UserFacingError } from '../shared/contract/dispatch'
import { createAgentServices, type AgentServices } from '../main/core/create-agent-services'
import { REFUSED_PREFIX, withoutRefusedPrefix } from '../main/core/ports/call-results'
import { createMcpHub, type McpHub } from '../main/core/mcp/hub'
import { fixedTrust, type TrustService } from '../main/core/trust/trust-service'
import { appFiles, resolveDataDir } from '../main/core/app-paths'
import { createFileSecretStore } from '../main/core/settings/secret-store'
import { createSettingsStore } from '../main/core/settings/settings-store'
import { askOnTerminal } from './approval-prompt'
import { defaultModelFor, UsageError, type RunArgs } from './args'
import { expandSlashCommand, readImageFiles } from './run-inputs'
import { visible } from './visible'
import { createLineReader, type CliIo, type LineReader } from './cli-io'

export const EXIT = { completed: 0, failed: 1, usage: 2, stopped: 3, refused: 4, cancelled: 130 } as const

const NON_INTERACTIVE_REFUSAL =
  'Denied: Modus runs non-interactively (--non-interactive), so nothing that needs approval can run.'

const UNTRUSTED_NOTICE =
  'modus: this workspace is not trusted: the permissions its own modes grant (.modus/modes.yaml, .roomodes) are off, so their calls ask and are refused here, and its commands (its tests, scripts and build files are its code) run only inside the OS sandbox, or ask where none can start. Pass --trust to apply them.'

const NON_INTERACTIVE_ANSWER =
  'The user is not available (this is a non-interactive run). Decide yourself with what you know, or finish with attempt_completion and say what is missing.'

/** `modus run`: one task on the real core, streamed to the terminal (or as JSON lines). */
export async function runCommand(args: RunArgs, io: CliIo): Promise<number> {
  return withServices(args, io, (services, workspace, reader) =>
    followTask(services, args, workspace, io, reader, async () => {
      const images = await readImageFiles(args.images ?? [], io.cwd)
      const dataDir = resolveDataDir({ env: io.env, platform: process.platform, home: homedir() })
      const text = await expandSlashCommand(args.task, { dataDir, workspace })
      // An isolated task starts like any other: the same images and the same expanded command.
      if (args.worktree) return startIsolated(services, { ...args, task: text }, workspace, io, images)
      return services.tasks.start({ text, mode: args.mode, workspace, images })
    })
  )
}

/** `--worktree`: the task starts in a new worktree; where it is and its branch go to stderr first. */
async function startIsolated(
  services: AgentServices,
  args: RunArgs,
  workspace: string,
  io: CliIo,
  images: ImageAttachment[]
): Promise<TaskSummary> {
  const isolated = await services.worktrees.start({
    workspace,
    text: args.task,
    mode: args.mode,
    name: args.worktree?.name,
    images
  })
  io.stderr.write(
    `modus: isolated task in ${isolated.path}\nmodus: branch ${isolated.branch} (from ${isolated.baseCommit.slice(0, 12)})\n`
  )
  const summary = isolated.taskId && services.tasks.list().find((task) => task.id === isolated.taskId)
  if (!summary)
    throw new UserFacingError(
      'queued',
      `the isolated task waits in the queue (the limit of tasks that run at once is reached); the app starts it when a slot frees. modus worktrees lists it.`
    )
  return summary
}

type RunOptions = Omit<RunArgs, 'command' | 'task'>

/** The workspace's real path, or null after saying it is not a folder. */
export async function workspaceOf(args: { workspace: string }, io: CliIo): Promise<string | null> {
  const workspace = await fs.realpath(resolve(io.cwd, args.workspace)).catch(() => null)
  if (!workspace || !(await fs.stat(workspace)).isDirectory()) {
    io.stderr.write(`modus: no such folder: ${resolve(io.cwd, args.workspace)}\n`)
    return null
  }
  return workspace
}

/** `--trust` as the user's answer for the folder's every grant, and an MCP hub that starts the servers it lets run. */
export function trustAndMcp(dataDir: string, io: CliIo, trusted: boolean): { trust: TrustService; mcp: McpHub } {
  const trust = fixedTrust(trusted)
  const mcp = createMcpHub({
    dataDir,
    env: io.env,
    isTrusted: (root, grants) => trust.inForce('mcp-servers', root, grants),
    watchConfig: false
  })
  return { trust, mcp }
}

/** The core's agent services for one CLI run, disposed afterwards. */
export async function withServices(
  args: RunOptions,
  io: CliIo,
  body: (services: AgentServices, workspace: string, reader: LineReader) => Promise<number>
): Promise<number> {
  const workspace = await workspaceOf(args, io)
  if (!workspace) return EXIT.usage
  const dataDir = resolveDataDir({ env: io.env, platform: process.platform, home: homedir() })
  const files = appFiles(dataDir)
  const settings = await createSettingsStore(files.settings)
  for (const problem of settings.problems()) io.stderr.write(`modus: warning: ${visible(problem)}\n`)
  let override
  if (args.provider) {
    const model = args.model ?? defaultModelFor(args.provider)
    if (!model) throw new UsageError(`--provider ${args.provider} needs --model.`)
    override = { kind: args.provider, model, baseUrl: args.baseUrl }
  }
  // MCP servers start in the background, all at once: the task never waits for them. A mode that
  // uses servers gets the tools of those that are up; search_mcp_tools names the ones still starting.
  const { trust, mcp } = trustAndMcp(dataDir, io, args.trust)
  const stopWarnings = followMcpWarnings(mcp, io)
  await mcp.open(workspace)
  const services = await createAgentServices({
    dataDir,
    settings,
    secrets: createFileSecretStore(files.secrets),
    env: io.env,
    currentWorkspace: () => workspace,
    trust,
    providerOverride: override,
    mcp
  })
  const reader = createLineReader(io)
  const stopIndexStart = startIndexAfterFirstRequest(services, workspace, settings.get().codeIndex)
  try {
    return await body(services, workspace, reader)
  } finally {
    stopIndexStart()
    reader.close()
    stopWarnings()
    await services.dispose()
    await mcp.dispose()
  }
}

/** Task events that arrive only once a model request has left (its answer or its failure). */
const AFTER_A_REQUEST = new Set<AgentEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'tool-call-partial',
  'tool-call',
  'assistant-end',
  'usage',
  'retry',
  'error'
])

/**
 * The workspace's index starts as in the app (codeIndex.autoStart, up to autoStartMaxFiles files),
 * in the background, once the first model request has left: loading LanceDB alone holds the
 * process for a second or more, which the first request must not wait for. A kept index opens
 * and checks for changes; the run's end cancels a build cleanly and the next run resumes it.
 */
function startIndexAfterFirstRequest(
  services: AgentServices,
  workspace: string,
  settings: { autoStart: boolean; autoStartMaxFiles: number }
): () => void {
  let started = false
  const stop = services.tasks.subscribe((_taskId, event) => {
    if (started || !AFTER_A_REQUEST.has(event.type)) return
    started = true
    stop()
    // Not inside the event's dispatch: the stream that emitted it goes on first.
    setImmediate(
      () =>
        void services.codeIndex
          .startWithWorkspace(workspace, { autoStart: settings.autoStart, maxFiles: settings.autoStartMaxFiles })
          .catch(() => undefined)
    )
  })
  return stop
}

/**
 * Streams one task's run to the terminal, answering its approvals and questions, until it settles.
 * `begin` starts or continues the task and returns it.
 */
export async function followTask(
  services: AgentServices,
  args: RunOptions,
  workspace: string,
  io: CliIo,
  reader: LineReader,
  begin: () => Promise<TaskSummary>
): Promise<number> {
  const ours = new Set<string>()
  const render = args.json ? jsonRenderer(io) : textRenderer(io, services)
  let rootId = ''
  const pendingAnswers: Array<Promise<void>> = []

  const handle = (taskId: string, event: AgentEvent) => {
    if (event.type === 'subtask' && ours.has(taskId)) ours.add(event.childId)
    if (!ours.has(taskId) && taskId !== rootId) return
    render.event(taskId, event, taskId === rootId)
    if (event.type === 'followup') pendingAnswers.push(answerFollowup(services, taskId, event, args, reader, io))
  }
  // Starting a task emits its first events (status, user-message) before its id is known here.
  let early: Array<[string, AgentEvent]> | null = []
  services.tasks.subscribe((taskId, event) => (early ? early.push([taskId, event]) : handle(taskId, event)))
  const startListening = (id: string) => {
    rootId = id
    ours.add(id)
    for (const [taskId, event] of early ?? []) handle(taskId, event)
    early = null
  }

  const approvalQueue: ApprovalItem[] = []
  let approving = false
  let refusedCalls = 0
  const drain = async () => {
    if (approving) return
    approving = true
    while (approvalQueue.length > 0) {
      const item = approvalQueue.shift() as ApprovalItem
      render.approval(item, args.nonInteractive)
      if (args.nonInteractive) refusedCalls++
      const decision = args.nonInteractive
        ? {
            approvalId: item.id,
            outcome: 'reject' as const,
            scope: 'call' as const,
            reason: NON_INTERACTIVE_REFUSAL,
            unattended: true as const
          }
        : await askOnTerminal(item, reader, io.stderr)
      services.approvals.decide(decision)
    }
    approving = false
  }
  const seen = new Set<string>()
  services.approvals.subscribe((items) => {
    for (const item of items) {
      if (seen.has(item.id) || !(ours.has(item.taskId) || item.taskId === rootId)) continue
      seen.add(item.id)
      approvalQueue.push(item)
    }
    void drain()
  })

  let interrupts = 0
  const onSigint = () => {
    interrupts++
    if (interrupts > 1) process.exit(EXIT.cancelled)
    io.stderr.write('\nmodus: cancelling (Ctrl-C again to quit at once)…\n')
    if (rootId) void services.tasks.cancel(rootId)
  }
  process.on('SIGINT', onSigint)
  if (args.nonInteractive && !args.trust) render.notice(UNTRUSTED_NOTICE)
  try {
    const task = await begin()
    startListening(task.id)
    for (;;) {
      const outcome = await services.tasks.whenSettled(rootId)
      await Promise.all(pendingAnswers)
      if (outcome === null) break
      if (outcome.status !== 'running' && outcome.status !== 'waiting') {
        const code = exitCodeFor(outcome.status, refusedCalls)
        render.end(rootId, outcome.status, code)
        return code
      }
    }
    const status = services.tasks.list().find((t) => t.id === rootId)?.status ?? 'failed'
    const code = exitCodeFor(status, refusedCalls)
    render.end(rootId, status, code)
    return code
  } catch (error) {
    if (error instanceof UserFacingError || error instanceof UsageError) {
      io.stderr.write(`modus: ${visible(error.message)}\n`)
      return error instanceof UsageError ? EXIT.usage : EXIT.failed
    }
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}

/**
 * A task that "completed" while calls it needed were refused (--non-interactive) did not do what
 * it was asked: a harness must be able to tell that from success.
 */
const exitCodeFor = (status: string, refusedCalls = 0): number =>
  status === 'completed'
    ? refusedCalls > 0
      ? EXIT.refused
      : EXIT.completed
    : status === 'cancelled'
      ? EXIT.cancelled
      : status === 'idle' || status === 'stopped'
        ? EXIT.stopped
        : EXIT.failed

async function answerFollowup(
  services: AgentServices,
  taskId: string,
  event: Extract<AgentEvent, { type: 'followup' }>,
  args: RunOptions,
  reader: LineReader,
  io: CliIo
): Promise<void> {
  if (args.nonInteractive) {
    await services.tasks.send({ taskId, text: NON_INTERACTIVE_ANSWER })
    return
  }
  const line = await reader.ask(
    visible(
      `\n${event.question}\n${event.suggestions.map((s, i) => `  ${i + 1}. ${s.answer}${s.mode ? ` (→ ${s.mode} mode)` : ''}`).join('\n')}\nAnswer (number or text): `
    )
  )
  if (line === null) {
    await services.tasks.send({ taskId, text: NON_INTERACTIVE_ANSWER })
    return
  }
  const chosen = /^\d+$/.test(line.trim()) ? event.suggestions[Number(line.trim()) - 1] : undefined
  const text = chosen?.answer ?? (line.trim() || event.suggestions[0]?.answer || '(no answer)')
  await services.tasks.send({ taskId, text, mode: chosen?.mode })
  void io
}

interface Renderer {
  event(taskId: string, event: AgentEvent, isRoot: boolean): void
  /** `refused`: the item is denied at once because nobody can answer (--non-interactive). */
  approval(item: ApprovalItem, refused: boolean): void
  notice(text: string): void
  end(taskId: string, status: string, code: number): void
}

function jsonRenderer(io: CliIo): Renderer {
  const line = (value: unknown) => io.stdout.write(`${JSON.stringify(value)}\n`)
  return {
    event: (taskId, event) => line({ taskId, event }),
    approval: (item) => line({ approval: item }),
    notice: (text) => line({ notice: text }),
    end: (taskId, status, code) => line({ taskId, end: { status, exitCode: code } })
  }
}

const SKIPPED_PREFIX = 'Skipped:'

function textRenderer(io: CliIo, services: AgentServices): Renderer {
  let atLineStart = true
  // What is printed here quotes the model: its control characters are made visible.
  const out = (text: string) => {
    if (!text) return
    io.stdout.write(visible(text))
    atLineStart = text.endsWith('\n')
  }
  const note = (text: string) => {
    if (!atLineStart) io.stdout.write('\n')
    atLineStart = true
    io.stderr.write(`${visible(text)}\n`)
  }
  const summaries = new Map<string, string>()
  return {
    event(_taskId, event, isRoot) {
      switch (event.type) {
        case 'assistant-start':
          // Each reply starts on its own line, never glued to the end of the previous one.
          return atLineStart ? undefined : out('\n')
        case 'text-delta':
          return out(event.text)
        case 'assistant-end':
          if (event.cutOff) return note('… [cut off: the answer stopped mid-stream]')
          return event.stopReason === 'max_tokens'
            ? note('… [cut off: the answer reached the model’s output limit]')
            : undefined
        case 'tool-call': {
          const summary = services.gate.summarize?.(event.name, event.args) ?? event.name
          summaries.set(event.callId, summary)
          // Completion and questions are shown in full by their own events.
          if (event.name === 'attempt_completion' || event.name === 'ask_followup_question') return undefined
          return note(`→ ${summary}`)
        }
        case 'tool-result': {
          const text = withoutRefusedPrefix(event.text)
          if (event.isError && text.startsWith(SKIPPED_PREFIX)) {
            return note(
              `  ⏭ skipped: ${summaries.get(event.callId) ?? 'a call'}: ${text.slice(SKIPPED_PREFIX.length).trim()}`
            )
          }
          // A refusal was already shown as the policy's decision or the approval's answer.
          if (event.text.startsWith(REFUSED_PREFIX)) return undefined
          return event.isError ? note(`  ✗ ${event.text.split('\n')[0]?.slice(0, 400)}`) : undefined
        }
        case 'tool-decision':
          return event.decision === 'deny' ? note(`  ⛔ denied by policy (${event.rule}): ${event.reason}`) : undefined
        case 'retry':
          return note(`… ${event.reason}; retrying in ${Math.ceil(event.delayMs / 1000)} s (attempt ${event.attempt})`)
        case 'error':
          return note(`! ${event.message}`)
        case 'subtask':
          return note(
            event.status === 'started' ? `── subtask in ${event.mode} mode ──` : `── subtask ${event.status} ──`
          )
        case 'mode-changed':
          return note(`── now in ${event.mode} mode ──`)
        case 'context-condensed':
          return note('… context condensed into a summary')
        case 'completion':
          if (!isRoot) return undefined
          if (!atLineStart) out('\n')
          return out(`\n${event.result}\n`)
        default:
          return undefined
      }
    },
    approval: (item, refused) => {
      // A pause (mistake or cost limit) is its own reason: said once.
      const what = item.reason === item.summary ? item.summary : `${item.summary}: ${item.reason}`
      if (refused) note(`  ⛔ refused: ${what} [${item.rule}] (--non-interactive: nothing that needs approval runs)`)
    },
    notice: (text) => note(text),
    end: (_taskId, status) => {
      if (status !== 'completed') note(`modus: task ${status}`)
    }
  }
}

/** Problems of the MCP config files and servers that did not start; names and messages quote the files. */
/** Writes each config problem and each server that fails (or waits for trust) once, as it happens. */
export function followMcpWarnings(mcp: McpHub, io: CliIo): () => void {
  const written = new Set<string>()
  const write = (line: string) => {
    if (written.has(line)) return
    written.add(line)
    io.stderr.write(line)
  }
  return mcp.onChange((snapshot) => {
    for (const line of mcpWarnings(snapshot)) write(line)
  })
}

export function writeMcpWarnings(snapshot: McpSnapshot, io: CliIo): void {
  for (const line of mcpWarnings(snapshot)) io.stderr.write(line)
}

function mcpWarnings(snapshot: McpSnapshot): string[] {
  const lines = snapshot.problems.map(
    (problem) =>
      `modus: warning: ${visible(`${problem.file}${problem.line ? `:${problem.line}` : ''} ${problem.message}`)}\n`
  )
  for (const server of snapshot.servers)
    if (server.status === 'failed' || server.status === 'untrusted')
      lines.push(`modus: warning: ${visible(`MCP server ${server.name}: ${server.error ?? server.status}`)}\n`)
  return lines
}
