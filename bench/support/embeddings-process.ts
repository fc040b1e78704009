import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'

/** bench/support/embeddings-server.mjs in a process of its own; its base URL (up to /v1) and a way to stop it. */
export async function startEmbeddingsProcess(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(__dirname, 'embeddings-server.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit']
  })
  const [line] = (await Promise.race([
    once(child.stdout, 'data'),
    once(child, 'exit').then(() => {
      throw new Error('the embeddings server exited before listening')
    })
  ])) as [Buffer]
  const port = Number(line.toString('utf8').trim())
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async close() {
      const exited = once(child, 'exit')
      child.stdin.end()
      await exited
    }
  }
}
