/**
 * What the sandbox refused during one command, as one line for the model. Writes: bubblewrap
 * mounts everything outside the writable roots read-only, so a refused write shows as EROFS
 * ("Read-only file system") in the command's own output; a protected path inside the workspace
 * may show as "Permission denied" or "File exists". Connections: the ones the network policy or
 * the user refused.
 */
export function blockedReport(output: string, refusedConnections: readonly string[], protectedNames: readonly string[]): string | null {
  const writes = blockedWrites(output, protectedNames)
  const parts: string[] = []
  if (writes.length > 0) parts.push(`${writes.length === 1 ? 'a write to' : 'writes to'} ${list(writes)} (outside the writable roots, or a protected path)`)
  if (refusedConnections.length > 0) parts.push(`${refusedConnections.length === 1 ? 'a connection to' : 'connections to'} ${list(refusedConnections)}`)
  return parts.length > 0 ? `Sandbox: blocked ${parts.join('; and ')}.` : null
}

const list = (items: readonly string[]): string => {
  const shown = items.slice(0, 5).join(', ')
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown
}

const QUOTED = /['‘"`]([^'’"`]+)['’"`]/
const COLON_PATH = /(?:^|:\s)((?:~|\.{0,2}\/|[\w.-]+\/)[^\s:]*|\.[\w.-]+)\s*:\s*(?:Read-only file system|Permission denied|File exists)/

function blockedWrites(output: string, protectedNames: readonly string[]): string[] {
  const found = new Set<string>()
  for (const line of output.split(/\r?\n/)) {
    const readOnly = line.includes('Read-only file system')
    const refused = /Permission denied|Operation not permitted|File exists/.test(line)
    if (!readOnly && !refused) continue
    const path = COLON_PATH.exec(line)?.[1] ?? QUOTED.exec(line)?.[1]
    if (!path) {
      if (readOnly) found.add('a path outside the writable roots')
      continue
    }
    if (readOnly || protectedNames.some((name) => path === name || path.includes(`${name}/`) || path.endsWith(`/${name}`))) found.add(path)
  }
  return [...found]
}
