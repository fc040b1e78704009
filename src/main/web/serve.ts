import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { resolveDataDir } from '../core/app-paths'
import { createCore } from '../core/create-core'
import { isLoopbackHost, startWebHost } from './server'

/**
 * `npm run serve`: the core plus the built UI on 127.0.0.1, for remote boxes and for tests.
 * Binding anything but loopback needs `--host` and prints a warning.
 */
const USAGE = `Usage: node out/main/serve.js [options]

Serves Modus (the core and the built UI) on this machine; open the printed URL, token included.

Options:
  --host <name>        address to bind (default 127.0.0.1; anything else is reachable from other machines)
  --port <number>      port (default 0: any free port)
  --workspace <path>   open this project folder at start
  --data-dir <path>    app data directory (default: the desktop app's)
  --static-dir <path>  built UI to serve (default: out/renderer)
  -h, --help           print this help`

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      workspace: { type: 'string' },
      'data-dir': { type: 'string' },
      'static-dir': { type: 'string' }
    }
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const host = values.host ?? '127.0.0.1'
  if (!isLoopbackHost(host)) {
    console.warn(
      `WARNING: serving Modus on ${host}, reachable beyond this machine. Anyone with the URL's token can read, edit and run code in your workspace.`
    )
  }
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : resolveDataDir()
  const core = await createCore({ dataDir, transport: 'web', version: process.env.npm_package_version ?? '0.1.0' })
  if (values.workspace) await core.handlers['workspace:open']({ path: values.workspace })
  const staticDir = values['static-dir'] ? resolve(values['static-dir']) : resolve(__dirname, '../renderer')
  const web = await startWebHost({ core, staticDir, host, port: Number(values.port) })
  console.log(`Modus is serving at ${web.url}`)
  const stop = (): void => {
    void Promise.all([web.close(), core.dispose()]).finally(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((error) => {
  console.error(
    `modus serve: ${error instanceof Error ? error.message : String(error)}\nRun with --help for the options.`
  )
  process.exit(1)
})
