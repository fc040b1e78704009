import type { AgentEvent } from '../../../shared/agent/events'
import type { ApprovalQueue } from '../approvals/approval-queue'
import { ASK_WITHDRAWN, isLoopback, type NetworkAnswer, type NetworkAsk } from './network-gate'
import { gaveUpLine, programOf } from './network-ask-text'

export interface NetworkApprovalDeps {
  approvals: ApprovalQueue
  taskTitle: (taskId: string) => string
  /** Adds a domain to a mode's sandbox allow list ("always in this mode"). */
  allowDomain: (modeSlug: string, domain: string) => Promise<void>
  /** Adds an event to a task's log and chat: the ask on its call's card, and how it ended. */
  record?: (taskId: string, event: AgentEvent) => void
  now?: () => number
}

/** A connection rule the UI hands back unchanged when the user picks "always in this mode". */
interface DomainRule {
  sandboxDomain: string
  mode: string
}

type Ended = Extract<AgentEvent, { type: 'network-ask-ended' }>

/**
 * A network ask as an item of the approval queue: "npm install wants registry.example: allow once
 * / always in this mode / deny". Allow once lets the running command reach the domain; always
 * also adds it to the mode. The connection waits until the item is decided or the command ends.
 * The ask and its end are also recorded in the task, on the card of the call that ran the
 * command; a command that ends first leaves a line there and in its tool result.
 */
export function createNetworkApprovals(
  deps: NetworkApprovalDeps
): (ask: NetworkAsk, signal: AbortSignal) => Promise<NetworkAnswer> {
  const now = deps.now ?? Date.now
  return async (ask, signal) => {
    const [first, ...others] = ask.commands
    const modes = [...new Set(ask.commands.map((command) => command.modeSlug))]
    const target = ask.port ? `${ask.host}:${ask.port}` : ask.host
    const who =
      others.length === 0
        ? first.command
        : `${first.command} (or one of ${others.length} other sandboxed commands: ${others.map((c) => c.command).join('; ')})`
    const rule: DomainRule = { sandboxDomain: ask.domain, mode: first.modeSlug }
    const program = programOf(first.command, ask.host)
    const { item, answer } = deps.approvals.ask({
      taskId: first.taskId,
      taskTitle: deps.taskTitle(first.taskId),
      kind: 'network',
      mode: first.modeSlug,
      ...(first.callId ? { callId: first.callId } : {}),
      tool: 'execute_command',
      args: { command: first.command, host: ask.host, port: ask.port },
      summary: `${oneLine(who)} wants ${target}`,
      rule: 'sandbox.network-ask',
      reason: `${isLoopback(ask.host) ? `${target} is a service on this machine (loopback: a dev server, a database), a host like any other for the sandbox; it` : ask.host} is not on the sandbox allow list of ${first.modeName} mode, which asks for other domains. The connection waits for your answer: allow once (for this run of the command), always in this mode (adds ${ask.domain} to the mode), or deny.`,
      ...(modes.length === 1
        ? {
            suggestedRule: {
              rule,
              label: `Always allow ${ask.domain} for sandboxed commands in ${first.modeName} mode`
            }
          }
        : {})
    })
    const record = (event: AgentEvent): void => {
      try {
        deps.record?.(first.taskId, event)
      } catch {
        // The record is for the user's eyes; the connection's answer must not depend on it.
      }
    }
    record({
      type: 'network-ask',
      at: item.createdAt,
      approvalId: item.id,
      ...(first.callId ? { callId: first.callId } : {}),
      host: ask.host,
      ...(ask.port ? { port: ask.port } : {}),
      command: oneLine(first.command)
    })

    let withdrawn: Pick<Ended, 'outcome' | 'text'> | null = null
    const withdraw = (): void => {
      if (!deps.approvals.get(item.id)) return
      if (signal.reason === ASK_WITHDRAWN.commandEnded) {
        const line = gaveUpLine(program, target, now() - item.createdAt)
        withdrawn = { outcome: 'gave-up', text: `${line}.` }
        // Synchronous with the gate's `remove`, so it reaches the ended command's tool result.
        for (const command of ask.commands) command.unanswered.push(`Sandbox: ${line}; the connection was refused.`)
      } else
        withdrawn = {
          outcome: 'cancelled',
          text: `Modus stopped the sandbox before you answered; ${target} was not reached.`
        }
      deps.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call', reason: withdrawn.text })
    }
    if (signal.aborted) withdraw()
    else signal.addEventListener('abort', withdraw, { once: true })
    const decided = await answer
    signal.removeEventListener('abort', withdraw)
    const ended = (outcome: Ended['outcome'], text: string): void =>
      record({ type: 'network-ask-ended', at: now(), approvalId: item.id, outcome, text })

    if (decided.outcome === 'cancelled') {
      ended('cancelled', `The task was stopped before you answered; ${target} was not reached.`)
      return { allow: false, reason: 'the task was cancelled' }
    }
    if (decided.outcome === 'reject') {
      // Set inside `withdraw` (a closure TypeScript does not follow): the command ended or the sandbox stopped.
      const by = withdrawn as Pick<Ended, 'outcome' | 'text'> | null
      if (by) ended(by.outcome, by.text)
      else ended('denied', denialText(target, decided.reason))
      return { allow: false, reason: decided.reason }
    }
    const always = decided.alwaysAllow as Partial<DomainRule> | undefined
    const savesDomain = always?.sandboxDomain === rule.sandboxDomain && always?.mode === rule.mode
    // Recorded before the save: the item has left the queue, and the card should not wait on a file write.
    if (!savesDomain) ended('allowed-once', `You allowed ${target} for this run of ${program}.`)
    else ended('allowed-always', `You allowed ${ask.domain} always in ${first.modeName} mode.`)
    // Saving the domain failing still lets this connection through: the user did allow it.
    if (savesDomain) await deps.allowDomain(rule.mode, rule.sandboxDomain).catch(() => undefined)
    return { allow: true }
  }
}

/** "You denied example.com:443: not now." — the text ends a sentence whatever the user typed. */
const denialText = (target: string, reason: string | undefined): string => {
  const given = oneLine(reason ?? '')
  if (!given) return `You denied ${target}.`
  return `You denied ${target}: ${given}${/[.!?…]$/.test(given) ? '' : '.'}`
}

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 160 ? `${line.slice(0, 157)}…` : line
}
