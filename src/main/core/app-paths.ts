import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export interface AppPathInputs {
  env: Record<string, string | undefined>
  platform: NodeJS.Platform
  home: string
}

const APP_NAME = 'Modus'

/**
 * The one app data dir per user, resolved the same way by the Electron app, the web host and the
 * CLI: `MODUS_DATA_DIR` wins; otherwise Electron's `userData` location for an app named "Modus".
 */
export function resolveDataDir(
  inputs: AppPathInputs = { env: process.env, platform: process.platform, home: homedir() }
): string {
  const override = inputs.env.MODUS_DATA_DIR?.trim()
  if (override) return resolve(override)
  const { env, platform, home } = inputs
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME)
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_NAME)
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_NAME)
}

/** Where each store keeps its files inside the data dir. */
export const appFiles = (dataDir: string) => ({
  settings: join(dataDir, 'settings.json'),
  secrets: join(dataDir, 'secrets.json'),
  tasksDir: join(dataDir, 'tasks'),
  taskIndex: join(dataDir, 'tasks', 'index.json')
})
