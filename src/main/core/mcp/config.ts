import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { McpServerEntry, type McpConfigProblem, type McpScope } from '../../../shared/contract/mcp'
import { writeFileAtomic } from '../fs/atomic-write'
import { locateJsonError } from '../settings/json-error'

/** A server ready to start: values substituted, transport and timeout settled. */
export interface McpServerConfig {
  name: string
  scope: McpScope
  file: string
  /** As written in the file (`${env:…}` kept), for the edit form. */
  entry: McpServerEntry
  transport: 'stdio' | 'streamable-http' | 'sse' | 'http-auto'
  command?: string
  args: string[]
  env: Record<string, string>
  cwd?: string
  url?: string
  headers: Record<string, string>
  disabled: boolean
  alwaysAllow: string[]
  disabledTools: string[]
  timeoutMs: number
}

export interface McpConfigFiles {
  global: string
  /** In order of precedence: `.modus/mcp.json` wins over Roo's `.roo/mcp.json`. */
  project: string[]
}

export const mcpConfigFiles = (dataDir: string, workspaceRoot: string | null): McpConfigFiles => ({
  global: join(dataDir, 'mcp.json'),
  project: workspaceRoot ? [join(workspaceRoot, '.modus', 'mcp.json'), join(workspaceRoot, '.roo', 'mcp.json')] : []
})

export interface LoadedMcpConfig {
  global: McpServerConfig[]
  project: McpServerConfig[]
  problems: McpConfigProblem[]
  /** Files that do not parse at all: their servers are unknown, not removed. */
  brokenFiles: string[]
}

const DEFAULT_TIMEOUT_S = 60

/** Reads every config file; a broken file or server is reported and skipped, never rewritten. */
export async function loadMcpConfig(
  files: McpConfigFiles,
  context: { env: Record<string, string | undefined>; workspaceRoot: string | null }
): Promise<LoadedMcpConfig> {
  const problems: McpConfigProblem[] = []
  const brokenFiles: string[] = []
  const global = await readServers(files.global, 'global', context, problems, brokenFiles)
  const project: McpServerConfig[] = []
  for (const file of files.project) {
    for (const server of await readServers(file, 'project', context, problems, brokenFiles))
      if (!project.some((known) => known.name === server.name)) project.push(server)
  }
  return { global, project, problems, brokenFiles }
}

async function readServers(
  file: string,
  scope: McpScope,
  context: { env: Record<string, string | undefined>; workspaceRoot: string | null },
  problems: McpConfigProblem[],
  brokenFiles: string[]
): Promise<McpServerConfig[]> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      problems.push({ file, message: `cannot be read: ${(error as Error).message}` })
    return []
  }
  const parsed = parseConfigText(file, text)
  if (!parsed.ok) {
    problems.push(parsed.problem)
    brokenFiles.push(file)
    return []
  }
  const servers: McpServerConfig[] = []
  for (const [name, raw] of Object.entries(parsed.servers)) {
    const entry = McpServerEntry.safeParse(raw)
    if (!entry.success) {
      const issues = entry.error.issues.map((issue) =>
        issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message
      )
      problems.push({ file, line: lineOfKey(text, name), message: `server "${name}" ${issues.join('; ')}` })
      continue
    }
    servers.push(
      resolveServer(name, scope, file, entry.data, context, (message) =>
        problems.push({ file, line: lineOfKey(text, name), message })
      )
    )
  }
  return servers
}

type ParsedFile =
  | { ok: true; root: Record<string, unknown>; servers: Record<string, unknown> }
  | { ok: false; problem: McpConfigProblem }

function parseConfigText(file: string, text: string): ParsedFile {
  if (!text.trim()) return { ok: true, root: {}, servers: {} }
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    const where = locateJsonError(text)
    return {
      ok: false,
      problem: {
        file,
        line: where?.line,
        message: `is not valid JSON${where ? ` (line ${where.line}, column ${where.column}: ${where.message})` : `: ${(error as Error).message}`}`
      }
    }
  }
  if (!root || typeof root !== 'object' || Array.isArray(root))
    return { ok: false, problem: { file, line: 1, message: 'must be a JSON object with "mcpServers"' } }
  const servers = (root as Record<string, unknown>).mcpServers ?? {}
  if (!servers || typeof servers !== 'object' || Array.isArray(servers))
    return {
      ok: false,
      problem: {
        file,
        line: lineOfKey(text, 'mcpServers'),
        message: '"mcpServers" must be an object of servers by name'
      }
    }
  return { ok: true, root: root as Record<string, unknown>, servers: servers as Record<string, unknown> }
}

const lineOfKey = (text: string, key: string): number | undefined => {
  const at = text.indexOf(JSON.stringify(key))
  return at < 0 ? undefined : text.slice(0, at).split('\n').length
}

/** `${env:VAR}` and `${workspaceFolder}` in every string value; an unset variable is reported. */
export function substitute(
  value: string,
  context: { env: Record<string, string | undefined>; workspaceRoot: string | null },
  report: (message: string) => void
): string {
  return value.replace(
    /\$\{(env:([A-Za-z_][A-Za-z0-9_]*)|workspaceFolder)\}/g,
    (_match, _whole, variable: string | undefined) => {
      if (!variable) return context.workspaceRoot ?? ''
      const found = context.env[variable]
      if (found === undefined) report(`\${env:${variable}} is not set in the environment`)
      return found ?? ''
    }
  )
}

function resolveServer(
  name: string,
  scope: McpScope,
  file: string,
  entry: McpServerEntry,
  context: { env: Record<string, string | undefined>; workspaceRoot: string | null },
  report: (message: string) => void
): McpServerConfig {
  const sub = (value: string) => substitute(value, context, (message) => report(`server "${name}": ${message}`))
  const mapValues = (record: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, sub(value)]))
  return {
    name,
    scope,
    file,
    entry,
    transport: entry.command ? 'stdio' : ((entry.type as 'streamable-http' | 'sse' | undefined) ?? 'http-auto'),
    command: entry.command ? sub(entry.command) : undefined,
    args: (entry.args ?? []).map(sub),
    env: mapValues(entry.env),
    cwd: entry.cwd ? sub(entry.cwd) : (context.workspaceRoot ?? undefined),
    url: entry.url ? sub(entry.url) : undefined,
    headers: mapValues(entry.headers),
    disabled: entry.disabled === true,
    alwaysAllow: entry.alwaysAllow ?? [],
    disabledTools: entry.disabledTools ?? [],
    timeoutMs: (entry.timeout ?? DEFAULT_TIMEOUT_S) * 1000
  }
}

export class McpConfigWriteError extends Error {}

/**
 * Changes one config file: reads it, lets `change` edit its servers, writes it atomically. A file
 * that does not parse is left exactly as it is and the error names its line.
 */
export async function updateMcpConfigFile(
  file: string,
  change: (servers: Record<string, unknown>) => void
): Promise<void> {
  let text = ''
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const parsed = parseConfigText(file, text)
  if (!parsed.ok)
    throw new McpConfigWriteError(`${file} ${parsed.problem.message}; fix it by hand first, it was not changed.`)
  const servers = { ...parsed.servers }
  change(servers)
  await writeFileAtomic(file, `${JSON.stringify({ ...parsed.root, mcpServers: servers }, null, 2)}\n`)
}

/**
 * The command line or URL of a server as written in its file (`${env:…}` unexpanded, so a secret
 * never reaches the screen), for the trust prompt and the MCP view.
 */
export const describeTarget = (entry: McpServerEntry): string =>
  entry.command ? [entry.command, ...(entry.args ?? [])].map(quoteIfNeeded).join(' ') : (entry.url ?? '')

const quoteIfNeeded = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`

/**
 * What else a server's entry decides, as written: its folder, the environment it is handed (which
 * can pull the user's own variables in, or make the same command line run other code) and the
 * headers sent to its URL. Empty parts are left out.
 */
export function describeSetup(entry: McpServerEntry): string[] {
  const pairs = (record: Record<string, string> | undefined, joiner: string) =>
    Object.entries(record ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => `${name}${joiner}${quoteIfSpaced(value)}`)
      .join(', ')
  const env = pairs(entry.env, '=')
  const headers = pairs(entry.headers, ': ')
  return [
    ...(entry.cwd ? [`in ${quoteIfSpaced(entry.cwd)}`] : []),
    ...(env ? [`with environment ${env}`] : []),
    ...(headers ? [`with headers ${headers}`] : [])
  ]
}

const quoteIfSpaced = (value: string): string => (/[\s,']/.test(value) ? `'${value.replace(/'/g, `'\\''`)}'` : value)
