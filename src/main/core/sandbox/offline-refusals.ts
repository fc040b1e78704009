/**
 * A command without network runs with no network at all (no proxy to refuse and record its
 * connections), so what it tried to reach is read from its own error lines: curl, git, wget,
 * Node and Python name the host (and port) they could not reach or resolve. In a sandbox without
 * network every such failure is the sandbox's doing.
 */
const PATTERNS: readonly RegExp[] = [
  // curl: "Failed to connect to 127.0.0.1 port 3000 after 0 ms"
  /Failed to connect to (?<host>\S+?) port (?<port>\d+)/,
  // curl, git: "Could not resolve host: example.com"
  /Could not resolve host: (?<host>[^\s;,'"]+)/,
  // Node: "connect ECONNREFUSED 127.0.0.1:3000", "getaddrinfo EAI_AGAIN registry.npmjs.org"
  /connect (?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH) (?<host>\[[^\]]+\]|[^\s:]+):(?<port>\d+)/,
  /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?<host>[^\s,:]+)/,
  // Python (urllib3, requests): "HTTPConnectionPool(host='localhost', port=3000)"
  /host='(?<host>[^']+)', port=(?<port>\d+)/,
  // wget: "unable to resolve host address ‘example.com’"
  /unable to resolve host address [‘'"](?<host>[^’'"]+)/
]

/** Words that mark a line worth keeping while the output streams (see createBlockedWriteScanner). */
export const NETWORK_FAILURE_WORDS =
  /Failed to connect to|Could not resolve host|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|host='|unable to resolve host/

/** `host:port` (or the host) of each connection the output says failed, each once. */
export function offlineRefusals(output: string): string[] {
  const found = new Set<string>()
  for (const line of output.split(/\r?\n/)) {
    if (!NETWORK_FAILURE_WORDS.test(line)) continue
    for (const pattern of PATTERNS) {
      const groups = pattern.exec(line)?.groups
      if (groups?.host) found.add(groups.port ? `${groups.host}:${groups.port}` : groups.host)
    }
  }
  return [...found]
}
