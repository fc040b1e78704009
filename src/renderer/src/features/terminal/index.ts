export { TerminalPanel } from './TerminalPanel'
export { useTerminalStore, useRunningTerminalCount } from './terminal-store'
