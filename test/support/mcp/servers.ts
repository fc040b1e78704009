import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'

const ROOT = resolve(__dirname, '../../..')
export const EVERYTHING_ENTRY = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')
const PRELOAD = join(__dirname, 'loopback-preload.cjs')

const FILESYSTEM_ENTRY = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')
const MEMORY_ENTRY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')

/** The reference filesystem server, allowed the given folders (its arguments). */
export const filesystemStdio = (...roots: string[]) => ({
  command: process.execPath,
  args: [FILESYSTEM_ENTRY, ...roots]
})

/** The reference memory server (a knowledge graph), kept in the given file. */
export const memoryStdio = (file: string) => ({
  command: process.execPath,
  args: [MEMORY_ENTRY],
  env: { MEMORY_FILE_PATH: file }
})

/** The stdio config of the reference server, as a user writes it in mcp.json. */
export const everythingStdio = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [EVERYTHING_ENTRY, 'stdio'],
  ...extra
})

export interface HttpServer {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/** The reference server over Streamable HTTP (`/mcp`) or legacy SSE (`/sse`) on 127.0.0.1, a free port. */
export async function startEverythingHttp(kind: 'streamableHttp' | 'sse'): Promise<HttpServer> {
  const child = spawn(process.execPath, ['--require', PRELOAD, EVERYTHING_ENTRY, kind], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let output = ''
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`The ${kind} server did not start: ${output}`)), 15_000)
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /LOOPBACK_PORT=(\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolvePort(Number(match[1]))
      }
    })
    child.once('exit', (code) => reject(new Error(`The ${kind} server exited (${code}): ${output}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/${kind === 'sse' ? 'sse' : 'mcp'}`,
    process: child,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((done) => setTimeout(done, 3000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }
}

/** A server that misbehaves on purpose (see misbehaving-server.mjs); cancellations are written to `log`. */
export const misbehavingStdio = (log: string) => ({
  command: process.execPath,
  args: [join(__dirname, 'misbehaving-server.mjs')],
  env: { MISBEHAVING_LOG: log }
})
