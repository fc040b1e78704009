import type { McpScope, McpServerEntry } from '../../../../shared/contract/mcp'

/** The add/edit form as the user types it: lists as lines, so nothing needs JSON by hand. */
export interface McpServerDraft {
  name: string
  scope: McpScope
  kind: 'stdio' | 'url'
  command: string
  /** One argument per line. */
  args: string
  /** `KEY=value` per line. */
  env: string
  cwd: string
  url: string
  urlType: 'auto' | 'streamable-http' | 'sse'
  /** `Header: value` per line. */
  headers: string
  timeout: string
  disabled: boolean
}

export const emptyDraft = (scope: McpScope): McpServerDraft => ({
  name: '',
  scope,
  kind: 'stdio',
  command: '',
  args: '',
  env: '',
  cwd: '',
  url: '',
  urlType: 'auto',
  headers: '',
  timeout: '',
  disabled: false
})

export function draftFromEntry(name: string, scope: McpScope, entry: McpServerEntry): McpServerDraft {
  return {
    ...emptyDraft(scope),
    name,
    kind: entry.command ? 'stdio' : 'url',
    command: entry.command ?? '',
    args: (entry.args ?? []).join('\n'),
    env: Object.entries(entry.env ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
    cwd: entry.cwd ?? '',
    url: entry.url ?? '',
    urlType: entry.type === 'streamable-http' || entry.type === 'sse' ? entry.type : 'auto',
    headers: Object.entries(entry.headers ?? {})
      .map(([key, value]) => `${key}: ${value}`)
      .join('\n'),
    timeout: entry.timeout ? String(entry.timeout) : '',
    disabled: entry.disabled === true
  }
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

function pairs(
  text: string,
  separator: string,
  what: string
): { ok: true; value: Record<string, string> } | { ok: false; error: string } {
  const value: Record<string, string> = {}
  for (const line of lines(text)) {
    const at = line.indexOf(separator)
    if (at <= 0)
      return { ok: false, error: `${what}: "${line}" is not ${separator === '=' ? 'KEY=value' : 'Name: value'}` }
    value[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return { ok: true, value }
}

/**
 * The entry written to the config file. Keys the form does not show (alwaysAllow, disabledTools,
 * anything Roo added) are kept from the previous entry.
 */
export function entryFromDraft(
  draft: McpServerDraft,
  previous: McpServerEntry | undefined
): { ok: true; entry: McpServerEntry } | { ok: false; error: string } {
  if (!draft.name.trim()) return { ok: false, error: 'Give the server a name.' }
  const timeout = draft.timeout.trim() ? Number(draft.timeout) : undefined
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < 1 || timeout > 3600))
    return { ok: false, error: 'Timeout: whole seconds from 1 to 3600.' }
  const {
    command: _c,
    args: _a,
    env: _e,
    cwd: _w,
    url: _u,
    headers: _h,
    type: _t,
    timeout: _o,
    disabled: _d,
    ...kept
  } = previous ?? {}
  const common = { ...kept, ...(timeout ? { timeout } : {}), ...(draft.disabled ? { disabled: true } : {}) }
  if (draft.kind === 'stdio') {
    if (!draft.command.trim()) return { ok: false, error: 'Command: the program to start.' }
    const env = pairs(draft.env, '=', 'Environment')
    if (!env.ok) return env
    const args = lines(draft.args)
    return {
      ok: true,
      entry: {
        command: draft.command.trim(),
        ...(args.length ? { args } : {}),
        ...(Object.keys(env.value).length ? { env: env.value } : {}),
        ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
        ...common
      }
    }
  }
  if (!/^https?:\/\/\S+$/.test(draft.url.trim()) && !/\$\{env:/.test(draft.url))
    return { ok: false, error: 'URL: an http:// or https:// address.' }
  const headers = pairs(draft.headers, ':', 'Headers')
  if (!headers.ok) return headers
  return {
    ok: true,
    entry: {
      ...(draft.urlType !== 'auto' ? { type: draft.urlType } : {}),
      url: draft.url.trim(),
      ...(Object.keys(headers.value).length ? { headers: headers.value } : {}),
      ...common
    }
  }
}
