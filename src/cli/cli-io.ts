import { createInterface, type Interface } from 'node:readline'

export interface CliIo {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  stdin: NodeJS.ReadableStream
  env: Record<string, string | undefined>
  cwd: string
}

/** Reads answers from stdin one line at a time (a TTY or a pipe); null once stdin has ended. */
export interface LineReader {
  ask(prompt: string): Promise<string | null>
  close(): void
}

export function createLineReader(io: CliIo): LineReader {
  let rl: Interface | null = null
  let ended = false
  const queued: string[] = []
  const waiting: Array<(line: string | null) => void> = []
  const start = () => {
    if (rl) return
    rl = createInterface({ input: io.stdin, terminal: false })
    rl.on('line', (line) => {
      const next = waiting.shift()
      if (next) next(line)
      else queued.push(line)
    })
    rl.on('close', () => {
      ended = true
      for (const next of waiting.splice(0)) next(null)
    })
  }
  return {
    ask(prompt) {
      start()
      io.stderr.write(prompt)
      const line = queued.shift()
      if (line !== undefined) return Promise.resolve(line)
      if (ended) return Promise.resolve(null)
      return new Promise((resolve) => waiting.push(resolve))
    },
    close() {
      rl?.close()
    }
  }
}
