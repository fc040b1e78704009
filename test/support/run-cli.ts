import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')
const jiti = join(root, 'node_modules/jiti/lib/jiti-cli.mjs')
const entry = join(root, 'src/cli/main.ts')

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the CLI source in its own Node process, as a user would run `modus`. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}
): Promise<CliRun> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [jiti, entry, ...args], {
      cwd: options.cwd ?? root,
      // A HOME of its own unless the test names one: no run reads or writes the user's.
      env: {
        ...process.env,
        HOME: mkdtempSync(join(tmpdir(), 'modus-cli-home-')),
        ANTHROPIC_API_KEY: 'test-key',
        ...options.env
      },
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdin.end(options.stdin ?? '')
    child.on('exit', (code) => resolveRun({ code, stdout, stderr }))
  })
}
