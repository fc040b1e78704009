/**
 * The sentences of a sandboxed command's network ask once it is over, as its chat card shows them
 * and (for one that went unanswered) as its tool result tells the model.
 */

/** Words that run the next word as the program (`env X=1 curl …`, `time npm test`). */
const RUNS_NEXT = new Set(['env', 'time', 'nohup', 'exec', 'command', 'builtin', 'nice', 'sudo'])
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/**
 * The program of a command line that connected to `host`: the first word of the part of the line
 * that names the host (else of the whole line), without assignments, wrappers or its directory.
 */
export function programOf(command: string, host: string): string {
  const parts = command
    .split(/&&|\|\||[;|&\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
  const part = parts.find((candidate) => candidate.includes(host)) ?? parts[0] ?? ''
  const words = part.split(/\s+/).map((word) => word.replace(/^['"(]+|['")]+$/g, ''))
  const program = words.find((word) => word && !ASSIGNMENT.test(word) && !RUNS_NEXT.has(word))
  return program ? (program.split('/').at(-1) ?? program) || 'the command' : 'the command'
}

/** "3 s", "2 min 5 s", "less than a second". */
export function waited(ms: number): string {
  if (ms < 1000) return 'less than a second'
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const rest = seconds % 60
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`
}

/** "curl gave up waiting for approval of example.com:443 after 8 s" */
export const gaveUpLine = (program: string, target: string, waitedMs: number): string =>
  `${program} gave up waiting for approval of ${target} after ${waited(waitedMs)}`
