// Which Chromium to drive — the one discovery the browser tool, `npm test` and playwright.config.ts
// share: CHROMIUM_PATH, an installed Chromium / Chrome / Edge, Playwright's own download, then the
// browser packed in `@sparticuz/chromium` (optional dependency, Linux x64 only, extracted to the
// temp dir on first use). Every probe can be passed in, so the order is testable without touching
// the machine's browsers. Plain TypeScript without TS-only runtime syntax: scripts/test.mjs loads it
// transpiled.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge']

export type ChromiumSource = 'CHROMIUM_PATH' | 'installed' | 'playwright' | '@sparticuz/chromium'
export type FoundChromium = { path: string; source: ChromiumSource }
export type ChromiumLookup = FoundChromium | { path: null; advice: string }

interface Sparticuz {
  executablePath(): Promise<string>
  /** The package's `bin` folder: its `al2023.tar.br` holds the NSS libraries the browser links to. */
  binDir?: string
}

export interface ChromiumProbes {
  env?: Record<string, string | undefined>
  platform?: string
  arch?: string
  exists?: (path: string) => boolean
  installedPaths?: string[]
  playwrightPath?: () => string | null
  loadSparticuz?: () => Sparticuz | null
  /** Shared libraries `binary` needs that the loader cannot find (with `libDir` searched first). */
  missingLibraries?: (binary: string, libDir?: string) => string[]
  /** Where the bundled libraries and the launcher that uses them are written (default: the temp dir). */
  scratchDir?: string
  /** Whether a found binary runs (`--version` answered with a version in time); default: it is run. */
  runs?: (binary: string) => boolean
  /** How long `--version` may take (default 10 s: a cold first start of a real browser is slow). */
  versionTimeoutMs?: number
}

/** Where `@sparticuz/chromium` extracts its browser; present once an earlier run extracted it. */
export const SPARTICUZ_EXTRACTED_PATH = join(tmpdir(), 'chromium')
/** The launcher for that browser on a system without its NSS libraries (a browser-less Linux). */
const WITH_LIBS_NAME = 'chromium-with-libs'

// By require at run time: the package is optional, and the bundler must not try to inline it. Resolved
// from this file when it is CommonJS (the app's bundle), else from the working directory (scripts).
const requireOptional = createRequire(
  typeof __filename === 'string' && isAbsolute(__filename) ? __filename : join(process.cwd(), 'index.js')
)

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
    const sparticuz = loaded.default ?? loaded
    // build/cjs/index.cjs (or build/index.js) → the package root's bin folder
    const entry = requireOptional.resolve('@sparticuz/chromium')
    const root = [dirname(entry), join(dirname(entry), '..'), join(dirname(entry), '..', '..')].find((dir) =>
      existsSync(join(dir, 'bin', 'al2023.tar.br'))
    )
    return { executablePath: () => sparticuz.executablePath(), binDir: root && join(root, 'bin') }
  } catch {
    return null // not installed (other platforms, or a Node it does not support)
  }
}

/** What `ldd` reports as "not found"; nothing when ldd itself is missing (the launch will say). */
function lddMissing(binary: string, libDir?: string): string[] {
  const env = libDir
    ? { ...process.env, LD_LIBRARY_PATH: [libDir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') }
    : process.env
  const result = spawnSync('ldd', [binary], { encoding: 'utf8', timeout: 15_000, env })
  if (typeof result.stdout !== 'string') return []
  return result.stdout
    .split('\n')
    .filter((line) => line.includes('=> not found'))
    .map((line) => line.trim().split(/\s/)[0])
}

/** Writes the regular files of a (ustar) tar archive under `dest`. */
function untar(archive: Buffer, dest: string): void {
  const text = (from: number, length: number) => archive.toString('utf8', from, from + length).replace(/\0.*$/s, '')
  for (let at = 0; at + 512 <= archive.length;) {
    const name = text(at, 100)
    if (!name) break
    const size = parseInt(text(at + 124, 12).trim() || '0', 8)
    const type = text(at + 156, 1)
    const path = [text(at + 345, 155), name].filter(Boolean).join('/')
    if ((type === '0' || type === '') && !path.split('/').includes('..')) {
      mkdirSync(dirname(join(dest, path)), { recursive: true })
      writeFileSync(join(dest, path), archive.subarray(at + 512, at + 512 + size), { mode: 0o755 })
    }
    at += 512 + Math.ceil(size / 512) * 512
  }
}

/**
 * The packed browser is built for Amazon Linux and links to NSS, which a Linux without any browser
 * usually lacks. Then its own copies (the package's al2023 archive) are unpacked and a launcher
 * script runs the browser with them on LD_LIBRARY_PATH; with the libraries present it runs as is.
 */
function withItsLibraries(binary: string, sparticuz: Sparticuz, o: Probes): { path: string } | { missing: string[] } {
  const missing = o.missingLibraries(binary)
  if (missing.length === 0) return { path: binary }
  if (!sparticuz.binDir) return { missing }
  const scratch = o.scratchDir ?? tmpdir()
  const libDir = join(scratch, 'al2023', 'lib')
  if (!existsSync(join(libDir, 'libnss3.so')))
    untar(brotliDecompressSync(readFileSync(join(sparticuz.binDir, 'al2023.tar.br'))), join(scratch, 'al2023'))
  const stillMissing = o.missingLibraries(binary, libDir)
  if (stillMissing.length > 0) return { missing: stillMissing }
  const launcher = join(scratch, WITH_LIBS_NAME)
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
  const script = `#!/bin/sh\n# Runs ${binary} with the NSS libraries packed in @sparticuz/chromium (this system has none).\nLD_LIBRARY_PATH=${quote(libDir)}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec ${quote(binary)} "$@"\n`
  writeFileSync(`${launcher}.tmp`, script, { mode: 0o755 })
  renameSync(`${launcher}.tmp`, launcher)
  return { path: launcher }
}

/** Well-known install locations per platform; Linux also looks the usual names up on PATH. */
export function installedChromiumPaths(
  platform: string = process.platform,
  env: Record<string, string | undefined> = process.env
): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'
    ]
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string =>
      Boolean(root)
    )
    return roots.flatMap((root) => [
      join(root, 'Chromium', 'Application', 'chrome.exe'),
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe')
    ])
  }
  const fromPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => BROWSER_NAMES.map((name) => join(dir, name)))
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', ...fromPath, '/snap/bin/chromium']
}

/** Answers per path for this process: the settings view asks often, and a browser does not stop running. */
const versionAnswers = new Map<string, boolean>()

/**
 * Whether `binary --version` prints a version and exits 0 in time. Ubuntu's `/usr/bin/chromium-browser`
 * is a stub that asks to install the snap (and exits 1); a broken or half-removed install may hang.
 * Windows is not asked: its chrome.exe opens a window for `--version` instead of printing one.
 */
function answersVersion(binary: string, platform: string, timeoutMs: number): boolean {
  if (platform === 'win32') return true
  const key = `${binary}\u0000${timeoutMs}`
  const known = versionAnswers.get(key)
  if (known !== undefined) return known
  const result = spawnSync(binary, ['--version'], {
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
    killSignal: 'SIGKILL'
  })
  const answered = result.status === 0 && /\d+\.\d+/.test(result.stdout ?? '')
  versionAnswers.set(key, answered)
  return answered
}

interface Probes {
  env: Record<string, string | undefined>
  platform: string
  arch: string
  exists: (path: string) => boolean
  installedPaths?: string[]
  playwrightPath: () => string | null
  loadSparticuz: () => Sparticuz | null
  missingLibraries: (binary: string, libDir?: string) => string[]
  scratchDir?: string
  runs: (binary: string) => boolean
  /** Candidates found that did not run, for the advice when nothing else is found. */
  notRunning: string[]
}

const withDefaults = (options: ChromiumProbes): Probes => ({
  env: options.env ?? process.env,
  platform: options.platform ?? process.platform,
  arch: options.arch ?? process.arch,
  exists: options.exists ?? existsSync,
  installedPaths: options.installedPaths,
  playwrightPath: options.playwrightPath ?? playwrightOwnChromium,
  loadSparticuz: options.loadSparticuz ?? loadSparticuz,
  missingLibraries: options.missingLibraries ?? lddMissing,
  scratchDir: options.scratchDir,
  runs:
    options.runs ??
    ((binary) => answersVersion(binary, options.platform ?? process.platform, options.versionTimeoutMs ?? 10_000)),
  notRunning: []
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
    if (!path || !o.exists(path)) continue
    // A browser found is chosen only if it runs; otherwise the next one is tried.
    if (candidate.source !== '@sparticuz/chromium' && !o.runs(path)) {
      o.notRunning.push(path)
      continue
    }
    return { path, source: candidate.source }
  }
  return null
}

/** The advice, naming what was found but did not run (Ubuntu's snap stub among them). */
const adviceWith = (o: Probes, advice: string): string =>
  o.notRunning.length === 0
    ? advice
    : `${advice}\n(Found but not answering \`--version\`, so not used: ${o.notRunning.join(', ')}. On Ubuntu, /usr/bin/chromium-browser is a stub that asks to install the snap.)`

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
        if (path && o.exists(path)) {
          const runnable = withItsLibraries(path, sparticuz, o)
          if ('path' in runnable) return { path: runnable.path, source: '@sparticuz/chromium' }
          return {
            path: null,
            advice: adviceWith(
              o,
              `${noBrowserAdvice(o)}\n(@sparticuz/chromium's browser lacks ${runnable.missing.join(', ')} on this system.)`
            )
          }
        }
      } catch (error) {
        return {
          path: null,
          advice: adviceWith(
            o,
            `${noBrowserAdvice(o)}\n(@sparticuz/chromium could not be extracted: ${(error as Error).message})`
          )
        }
      }
    }
  }
  return { path: null, advice: adviceWith(o, noBrowserAdvice(o)) }
}

/**
 * The same order without extracting anything, for places that cannot wait (playwright.config.ts, the
 * settings view's browser status): the `@sparticuz/chromium` browser counts only once extracted.
 */
export function findChromiumSync(options: ChromiumProbes = {}): FoundChromium | null {
  const o = withDefaults(options)
  const candidates = readyCandidates(o)
  if (sparticuzApplies(o)) {
    // The launcher exists only where the extracted browser needs it: then it comes first.
    candidates.push({ path: () => join(o.scratchDir ?? tmpdir(), WITH_LIBS_NAME), source: '@sparticuz/chromium' })
    candidates.push({ path: () => SPARTICUZ_EXTRACTED_PATH, source: '@sparticuz/chromium' })
  }
  return firstExisting(o, candidates)
}

/** How to get a browser on this platform: what the tool and the UI say when there is none. */
export function noBrowserAdvice(options: { platform?: string; arch?: string } = {}): string {
  const platform = options.platform ?? process.platform
  const arch = options.arch ?? process.arch
  const setPath = 'or set CHROMIUM_PATH to a Chromium/Chrome binary and restart Modus'
  if (platform === 'darwin')
    return `No Chromium found: install Google Chrome or Chromium (brew install --cask chromium), ${setPath}.`
  if (platform === 'win32')
    return `No Chromium found: install Google Chrome or Microsoft Edge, or run \`npx playwright install chromium\`, ${setPath}.`
  if (arch !== 'x64')
    return `No Chromium found: install one (Debian/Ubuntu: \`sudo apt-get install chromium\`), or run \`npx playwright install chromium\`, ${setPath}.`
  return (
    'No Chromium found: install one (Debian/Ubuntu: `sudo apt-get install chromium`, or `npx playwright install chromium`) — ' +
    `the optional dependency @sparticuz/chromium is not installed either (\`npm install\` adds it on Linux x64) — ${setPath}.`
  )
}
