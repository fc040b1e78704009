// Which Chromium to drive — the one discovery the browser tool, `npm test` and playwright.config.ts
// share: CHROMIUM_PATH, an installed Chromium / Chrome / Edge, Playwright's own download, then the
// browser packed in `@sparticuz/chromium` (optional dependency, Linux x64 only, extracted to the
// temp dir on first use). Every probe can be passed in, so the order is testable without touching
// the machine's browsers. Plain TypeScript without TS-only runtime syntax: scripts/test.mjs loads it
// transpiled.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, isAbsolute, join } from 'node:path'

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge']

export type ChromiumSource = 'CHROMIUM_PATH' | 'installed' | 'playwright' | '@sparticuz/chromium'
export type FoundChromium = { path: string; source: ChromiumSource }
export type ChromiumLookup = FoundChromium | { path: null; advice: string }

interface Sparticuz {
  executablePath(): Promise<string>
}

export interface ChromiumProbes {
  env?: Record<string, string | undefined>
  platform?: string
  arch?: string
  exists?: (path: string) => boolean
  installedPaths?: string[]
  playwrightPath?: () => string | null
  loadSparticuz?: () => Sparticuz | null
}

/** Where `@sparticuz/chromium` extracts its browser; present once an earlier run extracted it. */
export const SPARTICUZ_EXTRACTED_PATH = join(tmpdir(), 'chromium')

// By require at run time: the package is optional, and the bundler must not try to inline it. Resolved
// from this file when it is CommonJS (the app's bundle), else from the working directory (scripts).
const requireOptional = createRequire(typeof __filename === 'string' && isAbsolute(__filename) ? __filename : join(process.cwd(), 'index.js'))

function playwrightOwnChromium(): string | null {
  try {
    // Required here, not imported at the top: Playwright is heavy and most processes never ask.
    const { chromium } = requireOptional('playwright-core') as typeof import('playwright-core')
    return chromium.executablePath()
  } catch {
    return null // no browser registry for this platform
  }
}

function loadSparticuz(): Sparticuz | null {
  try {
    const loaded = requireOptional('@sparticuz/chromium') as Sparticuz & { default?: Sparticuz }
    return loaded.default ?? loaded
  } catch {
    return null // not installed (other platforms, or a Node it does not support)
  }
}

/** Well-known install locations per platform; Linux also looks the usual names up on PATH. */
export function installedChromiumPaths(platform: string = process.platform, env: Record<string, string | undefined> = process.env): string[] {
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

interface Probes {
  env: Record<string, string | undefined>
  platform: string
  arch: string
  exists: (path: string) => boolean
  installedPaths?: string[]
  playwrightPath: () => string | null
  loadSparticuz: () => Sparticuz | null
}

const withDefaults = (options: ChromiumProbes): Probes => ({
  env: options.env ?? process.env,
  platform: options.platform ?? process.platform,
  arch: options.arch ?? process.arch,
  exists: options.exists ?? existsSync,
  installedPaths: options.installedPaths,
  playwrightPath: options.playwrightPath ?? playwrightOwnChromium,
  loadSparticuz: options.loadSparticuz ?? loadSparticuz
})

type Candidate = { path: () => string | null | undefined; source: ChromiumSource }

/**
 * The candidates that need no extraction, in order, each with where it came from. Paths are looked up
 * only when every earlier one is missing: Playwright's own path costs loading playwright-core (~0.4 s).
 */
function readyCandidates(o: Probes): Candidate[] {
  const installed = o.installedPaths ?? installedChromiumPaths(o.platform, o.env)
  return [
    { path: () => o.env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' },
    ...installed.map((path) => ({ path: () => path, source: 'installed' as const })),
    { path: o.playwrightPath, source: 'playwright' }
  ]
}

const sparticuzApplies = (o: Probes) => o.platform === 'linux' && o.arch === 'x64'

const firstExisting = (o: Probes, candidates: Candidate[]): FoundChromium | null => {
  for (const candidate of candidates) {
    const path = candidate.path()
    if (path && o.exists(path)) return { path, source: candidate.source }
  }
  return null
}

/** The browser to launch, extracting `@sparticuz/chromium` when nothing else exists; else how to get one. */
export async function findChromium(options: ChromiumProbes = {}): Promise<ChromiumLookup> {
  const o = withDefaults(options)
  const ready = firstExisting(o, readyCandidates(o))
  if (ready) return ready
  if (sparticuzApplies(o)) {
    const sparticuz = o.loadSparticuz()
    if (sparticuz) {
      try {
        const path = await sparticuz.executablePath()
        if (path && o.exists(path)) return { path, source: '@sparticuz/chromium' }
      } catch (error) {
        return { path: null, advice: `${noBrowserAdvice(o)}\n(@sparticuz/chromium could not be extracted: ${(error as Error).message})` }
      }
    }
  }
  return { path: null, advice: noBrowserAdvice(o) }
}

/**
 * The same order without extracting anything, for places that cannot wait (playwright.config.ts, the
 * settings view's browser status): the `@sparticuz/chromium` browser counts only once extracted.
 */
export function findChromiumSync(options: ChromiumProbes = {}): FoundChromium | null {
  const o = withDefaults(options)
  const candidates = readyCandidates(o)
  if (sparticuzApplies(o)) candidates.push({ path: () => SPARTICUZ_EXTRACTED_PATH, source: '@sparticuz/chromium' })
  return firstExisting(o, candidates)
}

/** How to get a browser on this platform: what the tool and the UI say when there is none. */
export function noBrowserAdvice(options: { platform?: string; arch?: string } = {}): string {
  const platform = options.platform ?? process.platform
  const arch = options.arch ?? process.arch
  const setPath = 'or set CHROMIUM_PATH to a Chromium/Chrome binary and restart Modus'
  if (platform === 'darwin') return `No Chromium found: install Google Chrome or Chromium (brew install --cask chromium), ${setPath}.`
  if (platform === 'win32') return `No Chromium found: install Google Chrome or Microsoft Edge, or run \`npx playwright install chromium\`, ${setPath}.`
  if (arch !== 'x64') return `No Chromium found: install one (Debian/Ubuntu: \`sudo apt-get install chromium\`), or run \`npx playwright install chromium\`, ${setPath}.`
  return (
    'No Chromium found: install one (Debian/Ubuntu: `sudo apt-get install chromium`, or `npx playwright install chromium`) — ' +
    `the optional dependency @sparticuz/chromium is not installed either (\`npm install\` adds it on Linux x64) — ${setPath}.`
  )
}
