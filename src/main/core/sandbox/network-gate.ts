import type { SandboxNetworkPolicy } from '../../../shared/modes/schema'

/** A sandboxed command that is running (from its wrap until it ends). */
export interface SandboxedCommand {
  id: string
  taskId: string
  modeSlug: string
  modeName: string
  command: string
  network: SandboxNetworkPolicy
  /** Domains it reaches without asking: the mode's list, then what the user allowed for it. */
  allowed: string[]
  /** Connections refused while it ran (`host:port`), for its tool result. */
  refused: string[]
  /** The tool call that runs it, if any: its card shows the command's network asks. */
  callId?: string
  /**
   * Lines for its tool result about asks still waiting when it ended ("Sandbox: curl gave up
   * waiting for approval of …"), written while `remove` withdraws them, before the result is made.
   */
  unanswered: string[]
}

/** A connection no list allows, to put to the user. */
export interface NetworkAsk {
  host: string
  port?: number
  /** The domain an "always" answer adds to the mode (IPv6 bracketed). */
  domain: string
  /**
   * The running sandboxed commands it can come from (the runtime does not say which one), the
   * likeliest first: those naming the host in their command line. The answer applies to each.
   */
  commands: SandboxedCommand[]
}

export type NetworkAnswer = { allow: true } | { allow: false; reason?: string }

/**
 * Why an ask's signal aborted (its `reason`): every command it could come from ended while it
 * waited, or the sandbox service stopped.
 */
export const ASK_WITHDRAWN = { commandEnded: 'command-ended', stopped: 'sandbox-stopped' } as const
type Verdict = true | { allow: false; reason: string }

export interface NetworkGate {
  /** `register` sets the command's per-command allow list in the runtime (again when it grows). */
  add(command: SandboxedCommand, register: (allowed: string[]) => void): void
  remove(id: string): void
  /** The runtime's ask callback: a host no configured or per-command list allowed. */
  decide(target: { host: string; port?: number }): Promise<Verdict>
  dispose(): void
}

/**
 * Decides connections the runtime's lists did not allow. The runtime's callback is told the host
 * and port but not which command connects, so the gate judges by the sandboxed commands running
 * now whose own lists do not allow the host (the proxy would not have asked for those): none →
 * refused; any whose mode does not ask (network none or an allow-list) → refused, as that command
 * may be the one. Otherwise one approval item names every candidate, those naming the host in
 * their command line first, and the answer applies to each: the callback's answer lets this
 * connection through whichever command made it, so it cannot be narrowed to one. Concurrent
 * connections to one host share one question.
 */
export function createNetworkGate(deps: {
  askNetwork: (ask: NetworkAsk, signal: AbortSignal) => Promise<NetworkAnswer>
}): NetworkGate {
  const live = new Map<string, { command: SandboxedCommand; register: (allowed: string[]) => void }>()
  const pending = new Map<string, { ids: string[]; controller: AbortController; verdict: Promise<Verdict> }>()

  const refuse = (commands: readonly SandboxedCommand[], target: string, reason: string): Verdict => {
    for (const command of commands) if (!command.refused.includes(target)) command.refused.push(target)
    return { allow: false, reason }
  }

  async function ask(
    commands: SandboxedCommand[],
    host: string,
    port: number | undefined,
    target: string,
    signal: AbortSignal
  ): Promise<Verdict> {
    // Loopback is one machine with many services: "always" names the port (`localhost:3000`).
    const domain = isLoopback(host) && port ? `${bracketed(host)}:${port}` : bracketed(host)
    let answer: NetworkAnswer
    try {
      answer = await deps.askNetwork({ host, port, domain, commands }, signal)
    } catch {
      answer = { allow: false, reason: 'the question could not be asked' }
    }
    if (!answer.allow)
      return refuse(commands, target, `${target} was denied${answer.reason ? `: ${answer.reason}` : ' by the user'}`)
    for (const command of commands) {
      const entry = live.get(command.id)
      if (!entry || entry.command.allowed.includes(domain)) continue
      entry.command.allowed = [...entry.command.allowed, domain]
      entry.register(entry.command.allowed)
    }
    return true
  }

  return {
    add(command, register) {
      live.set(command.id, { command, register })
      if (command.allowed.length > 0) register(command.allowed)
    },
    remove(id) {
      live.delete(id)
      // A question only the ended command could have asked is withdrawn (synchronously: the
      // asker writes its `unanswered` line before the command's result is made).
      for (const [key, entry] of pending) {
        if (entry.ids.every((candidate) => !live.has(candidate))) {
          entry.controller.abort(ASK_WITHDRAWN.commandEnded)
          pending.delete(key)
        }
      }
    },
    decide({ host, port }) {
      const target = port ? `${host}:${port}` : host
      const commands = [...live.values()]
        .map((entry) => entry.command)
        .filter((command) => !listAllows(command.allowed, host, port))
      if (commands.length === 0)
        return Promise.resolve(refuse([], target, `${target}: no sandboxed command that may ask is running`))
      const quiet = commands.filter((command) => command.network !== 'ask')
      if (quiet.length > 0) {
        const only = commands.length === 1 ? commands[0] : null
        const reason = only
          ? only.network === 'none'
            ? `${target} refused: sandboxed commands in ${only.modeName} mode have no network access`
            : `${target} refused: ${host} is not on the allow list of ${only.modeName} mode`
          : `${target} refused: another sandboxed command without network asks was running (${quiet.map((c) => c.modeName).join(', ')} mode)`
        return Promise.resolve(refuse(commands, target, reason))
      }
      const key = `${target}\u0000${commands.map((c) => c.id).join(',')}`
      const existing = pending.get(key)
      if (existing) return existing.verdict
      const likeliest = [
        ...commands.filter((c) => namesHost(c.command, host)),
        ...commands.filter((c) => !namesHost(c.command, host))
      ]
      const controller = new AbortController()
      const verdict = ask(likeliest, host, port, target, controller.signal).finally(() => pending.delete(key))
      pending.set(key, { ids: commands.map((c) => c.id), controller, verdict })
      return verdict
    },
    dispose() {
      for (const entry of pending.values()) entry.controller.abort(ASK_WITHDRAWN.stopped)
      pending.clear()
      live.clear()
    }
  }
}

/** 127.0.0.0/8, `localhost` (and `*.localhost`), `::1`. */
export const isLoopback = (host: string): boolean => {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '')
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(name) ||
    name === '::1' ||
    /^::ffff:127\./.test(name)
  )
}

const bracketed = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)

/** Whether a command's list (`example.com`, `*.example.com`, either with `:port`) lets the host through. */
function listAllows(patterns: readonly string[], host: string, port: number | undefined): boolean {
  const name = bracketed(host).toLowerCase()
  return patterns.some((pattern) => {
    const withPort = /^(.*):(\d+)$/.exec(pattern)
    if (withPort && !withPort[1].endsWith(']') && withPort[1].includes(':')) return false
    const [base, patternPort] = withPort ? [withPort[1], Number(withPort[2])] : [pattern, undefined]
    if (patternPort !== undefined && patternPort !== port) return false
    const wanted = base.toLowerCase()
    return wanted.startsWith('*.') ? name.endsWith(wanted.slice(1)) : name === wanted
  })
}

/** The host appears in the command line as a whole name (not inside a longer one). */
function namesHost(command: string, host: string): boolean {
  const escaped = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?:^|[^\\w.-])${escaped}(?![\\w-]|\\.[\\w-])`, 'i').test(command)
}
