export { createTerminalService, type TerminalServiceDeps, type TerminalEventSink } from './terminal-service'
export { createTerminalHandlers, type TerminalHandlerDeps } from './handlers'
export { resolveLoginShellEnv, memoizeEnv, type ResolveEnv } from './login-env'
export type * from './types'
