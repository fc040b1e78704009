// `npm start`: builds Modus and opens the desktop app. Where no Electron runtime can be had
// (its download is blocked or failed), it says so in one line and points to `npm run serve`.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const build = spawnSync(resolve(root, 'node_modules/.bin/electron-vite'), ['build'], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

// Electron ≥42 fetches its binary on first require; done in a child so a failed download stays quiet.
const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'],
  timeout: 300_000
})
const electronBinary = probe.status === 0 ? probe.stdout.trim() : null
if (!electronBinary) {
  console.error(
    'No Electron runtime is available on this machine (download blocked or failed): run `npm run serve` to use Modus in your browser.'
  )
  process.exit(1)
}

const app = spawn(electronBinary, [root], { cwd: root, stdio: 'inherit' })
app.on('exit', (code) => process.exit(code ?? 0))
