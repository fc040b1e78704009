// Which Chromium the browser tool drives. The same order as scripts/chromium-path.cjs (which the
// test runner's CommonJS config needs as it is): CHROMIUM_PATH, an installed Chromium / Chrome /
// Edge, Playwright's own download, then `@sparticuz/chromium` once extracted. Probes are injectable.
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { chromium } from 'playwright-core'

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge']

export type ChromiumLookup = { path: string; source: string } | { path: null; advice: string }

export interface FindChromiumOptions {
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
  arch?: string
  exists?: (path: string) => boolean
  playwrightPath?: () => string | null
}

export function installedChromiumPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'
    ]
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => Boolean(root))
    return roots.flatMap((root) => [
      join(root, 'Chromium', 'Application', 'chrome.exe'),
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe')
    ])
  }
  const fromPath = (env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => BROWSER_NAMES.map((name) => join(dir, name)))
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', ...fromPath, '/snap/bin/chromium']
}

const playwrightOwnChromium = (): string | null => {
  try {
    return chromium.executablePath()
  } catch {
    return null // no browser registry for this platform
  }
}

/** How to get a browser on this platform: what the tool answers when there is none. */
export function noBrowserAdvice(platform: NodeJS.Platform = process.platform): string {
  const setPath = 'or set CHROMIUM_PATH to a Chromium/Chrome binary and restart Modus'
  if (platform === 'darwin') return `No Chromium found: install Google Chrome or Chromium (brew install --cask chromium), ${setPath}.`
  if (platform === 'win32') return `No Chromium found: install Google Chrome or Microsoft Edge, or run \`npx playwright install chromium\`, ${setPath}.`
  return `No Chromium found: install one (Debian/Ubuntu: \`sudo apt-get install chromium\`), or run \`npx playwright install chromium\`, ${setPath}.`
}

export function findChromium(options: FindChromiumOptions = {}): ChromiumLookup {
  const env = options.env ?? process.env
  const platform = options.platform ?? process.platform
  const exists = options.exists ?? existsSync
  const candidates: Array<{ path: string | null | undefined; source: string }> = [
    { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' },
    ...installedChromiumPaths(platform, env).map((path) => ({ path, source: 'installed' })),
    { path: (options.playwrightPath ?? playwrightOwnChromium)(), source: 'playwright' }
  ]
  if (platform === 'linux' && (options.arch ?? process.arch) === 'x64') candidates.push({ path: join(tmpdir(), 'chromium'), source: '@sparticuz/chromium' })
  const found = candidates.find((candidate) => candidate.path && exists(candidate.path))
  return found?.path ? { path: found.path, source: found.source } : { path: null, advice: noBrowserAdvice(platform) }
}
