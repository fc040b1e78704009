import type { TerminalCommandInfo, TerminalInfo } from '../../../../shared/contract/terminal'

/** Pure helpers of the terminal panel (tested without React). */

/** Keeps the selected tab while it exists; otherwise the first live terminal, else the first. */
export function nextActiveTerminal(list: TerminalInfo[], activeId: string | null): string | null {
  if (activeId && list.some((t) => t.id === activeId)) return activeId
  return (list.find((t) => t.status !== 'exited') ?? list[0])?.id ?? null
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = total % 60
  if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`
  if (minutes > 0) return `${minutes}m ${String(seconds).padStart(2, '0')}s`
  return `${seconds}s`
}

/** "running 1m 05s · pid 4242", "waiting for input", "exited 0 after 3s", "stopped". */
export function commandStatus(command: TerminalCommandInfo, now: number): string {
  if (command.endedAt === null) {
    const parts = [
      command.state === 'waiting-input' ? 'waiting for input' : 'running',
      formatDuration(now - command.startedAt)
    ]
    if (command.pid !== null) parts.push(`pid ${command.pid}`)
    if (command.background) parts.push('background')
    return parts.join(' · ')
  }
  const took = formatDuration(command.endedAt - command.startedAt)
  return command.state === 'killed' ? `stopped after ${took}` : `exited ${command.exitCode ?? '?'} after ${took}`
}

/** Short state for the tab: what a glance needs. */
export function tabState(terminal: TerminalInfo): 'exited' | 'waiting' | 'running' | 'idle' {
  if (terminal.status === 'exited') return 'exited'
  if (terminal.command && terminal.command.endedAt === null)
    return terminal.command.state === 'waiting-input' ? 'waiting' : 'running'
  return 'idle'
}

/** Task terminals first (grouped by task, in creation order), then the user's. */
export function orderTerminals(list: TerminalInfo[]): TerminalInfo[] {
  const task = list.filter((t) => t.kind === 'task')
  const user = list.filter((t) => t.kind === 'user')
  return [...task, ...user]
}

/** A task terminal's tab: its task's title and the command it runs (or ran); a user terminal's own name. */
export function tabLabel(terminal: TerminalInfo): string {
  if (terminal.kind !== 'task' || !terminal.command) return terminal.title
  const command = terminal.command.command.replace(/\s+/g, ' ').trim()
  return `${terminal.title} · ${command.length > 32 ? `${command.slice(0, 31)}…` : command}`
}
