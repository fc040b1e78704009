/**
 * Channel names as plain strings, with no zod import: the sandboxed preload bundles this file alone.
 * A test keeps it equal to the keys of `requests` and `events`.
 */
export const requestChannels = [
  'app:info',
  'workspace:open',
  'workspace:pick',
  'workspace:current',
  'workspace:recent',
  'workspace:trust',
  'settings:get',
  'settings:saveProvider',
  'settings:removeProvider',
  'settings:setActiveProvider',
  'settings:saveLimits',
  'settings:saveCommandRules',
  'settings:setTheme',
  'task:start',
  'task:send',
  'task:cancel',
  'task:list',
  'task:events',
  'task:resume',
  'task:delete',
  'task:export',
  'approvals:list',
  'approvals:decide',
  'changes:list',
  'changes:revert',
  'changes:check',
  'terminal:list',
  'terminal:create',
  'terminal:write',
  'terminal:resize',
  'terminal:kill',
  'terminal:stopCommand',
  'terminal:keep',
  'terminal:output',
  'modes:list',
  'modes:save',
  'modes:delete',
  'modes:resetBuiltIn',
  'modes:import',
  'modes:export',
  'modes:testRegex',
  'mcp:list',
  'mcp:restart',
  'mcp:saveServer',
  'mcp:removeServer',
  'mcp:setTool'
] as const

export const eventNames = [
  'app:notice',
  'workspace:opened',
  'settings:changed',
  'task:event',
  'task:updated',
  'approvals:changed',
  'changes:updated',
  'terminal:data',
  'terminal:changed',
  'modes:changed',
  'mcp:changed'
] as const

/** The single IPC channel that carries every event from main to the renderer. */
export const EVENT_CHANNEL = 'modus:event'
