import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'

export const SERVE_ENTRY = resolve(__dirname, '../../out/main/serve.js')

/**
 * Starts the built web host (`out/main/serve.js`, or another build's `entry`) as a user would, on its own data dir and a free
 * port; resolves with the URL it prints (token in its fragment). Used by e2e and the UI benchmarks.
 */
export async function startServeProcess(
  dataDir: string,
  entry: string = SERVE_ENTRY
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  // The host's shells get a HOME of their own beside the data dir: no test reads or writes the user's.
  const home = `${dataDir}-home`
  mkdirSync(home, { recursive: true })
  const child = spawn(process.execPath, [entry, '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: home, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', GEMINI_API_KEY: '' }
  })
  // Everything the host prints, and how it ended, for the report of a test that failed.
  let output = ''
  child.once('exit', (code, signal) => (output += `\n[web host exited: code ${code}, signal ${signal}]\n`))
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 20_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /serving at (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)))
  })
  return { child, url, output: () => output }
}
