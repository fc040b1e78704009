import type { Channel, RequestInput } from '../../../shared/contract'

type Request<C extends Channel = Channel> = { [K in C]: { channel: K; payload: RequestInput<K> } }[C]

/**
 * What the first screen asks the core for as soon as it connects (App's load on open, the
 * workspace picker's recent folders, the composer's modes, the status bar's index). The early
 * connection sends them while the app's scripts still load; a request that matches none is simply
 * sent when asked.
 */
export const FIRST_SCREEN_REQUESTS: readonly Request[] = [
  { channel: 'workspace:current', payload: {} },
  { channel: 'settings:get', payload: {} },
  { channel: 'approvals:list', payload: {} },
  { channel: 'task:list', payload: {} },
  { channel: 'modes:list', payload: {} },
  { channel: 'workspace:recent', payload: {} },
  { channel: 'codeindex:status', payload: {} }
]

/** One key per channel and payload, as the app's request would send them. */
export const requestKey = (channel: string, payload: unknown): string => `${channel} ${JSON.stringify(payload)}`
