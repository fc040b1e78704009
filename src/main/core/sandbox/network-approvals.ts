import type { ApprovalQueue } from '../agent/approval-queue'
import { isLoopback, type NetworkAnswer, type NetworkAsk } from './network-gate'

export interface NetworkApprovalDeps {
  approvals: ApprovalQueue
  taskTitle: (taskId: string) => string
  /** Adds a domain to a mode's sandbox allow list ("always in this mode"). */
  allowDomain: (modeSlug: string, domain: string) => Promise<void>
}

/** A connection rule the UI hands back unchanged when the user picks "always in this mode". */
interface DomainRule {
  sandboxDomain: string
  mode: string
}

/**
 * A network ask as an item of the approval queue: "npm install wants registry.example: allow once
 * / always in this mode / deny". Allow once lets the running command reach the domain; always
 * also adds it to the mode. The connection waits until the item is decided or the command ends.
 */
export function createNetworkApprovals(deps: NetworkApprovalDeps): (ask: NetworkAsk, signal: AbortSignal) => Promise<NetworkAnswer> {
  return async (ask, signal) => {
    const [first, ...others] = ask.commands
    const modes = [...new Set(ask.commands.map((command) => command.modeSlug))]
    const target = ask.port ? `${ask.host}:${ask.port}` : ask.host
    const who = others.length === 0 ? first.command : `${first.command} (or one of ${others.length} other sandboxed commands: ${others.map((c) => c.command).join('; ')})`
    const rule: DomainRule = { sandboxDomain: ask.domain, mode: first.modeSlug }
    const { item, answer } = deps.approvals.ask({
      taskId: first.taskId,
      taskTitle: deps.taskTitle(first.taskId),
      kind: 'network',
      mode: first.modeSlug,
      tool: 'execute_command',
      args: { command: first.command, host: ask.host, port: ask.port },
      summary: `${oneLine(who)} wants ${target}`,
      rule: 'sandbox.network-ask',
      reason: `${isLoopback(ask.host) ? `${target} is a service on this machine (loopback: a dev server, a database), a host like any other for the sandbox; it` : ask.host} is not on the sandbox allow list of ${first.modeName} mode, which asks for other domains. The connection waits for your answer: allow once (for this run of the command), always in this mode (adds ${ask.domain} to the mode), or deny.`,
      ...(modes.length === 1 ? { suggestedRule: { rule, label: `Always allow ${ask.domain} for sandboxed commands in ${first.modeName} mode` } } : {})
    })
    const withdraw = (): void => {
      deps.approvals.decide({ approvalId: item.id, outcome: 'reject', scope: 'call', reason: 'the command ended before an answer' })
    }
    if (signal.aborted) withdraw()
    else signal.addEventListener('abort', withdraw, { once: true })
    const decided = await answer
    signal.removeEventListener('abort', withdraw)
    if (decided.outcome === 'cancelled') return { allow: false, reason: 'the task was cancelled' }
    if (decided.outcome === 'reject') return { allow: false, reason: decided.reason }
    const always = decided.alwaysAllow as Partial<DomainRule> | undefined
    // Saving the domain failing still lets this connection through: the user did allow it.
    if (always && always.sandboxDomain === rule.sandboxDomain && always.mode === rule.mode) await deps.allowDomain(rule.mode, rule.sandboxDomain).catch(() => undefined)
    return { allow: true }
  }
}

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 160 ? `${line.slice(0, 157)}…` : line
}
