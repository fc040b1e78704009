// Finds a Chromium for Playwright, in this order: CHROMIUM_PATH, an installed Chromium/Chrome,
// Playwright's own download, then the one packed in `@sparticuz/chromium` (an optional dependency,
// Linux x64 only, extracted to the temp dir on first use). Everything a probe needs can be passed
// in, so the order itself is testable without touching the machine's browsers.
// CommonJS so that playwright.config.ts (compiled to CommonJS by Playwright) can load it too.
const { existsSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { delimiter, join } = require('node:path')

const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']

/** Well-known install locations per platform; Linux also looks the usual names up on PATH. */
function installedChromiumPaths(platform = process.platform, env = process.env) {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'
    ]
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean)
    return roots.flatMap((root) => [
      join(root, 'Chromium', 'Application', 'chrome.exe'),
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe')
    ])
  }
  const fromPath = (env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => BROWSER_NAMES.map((name) => join(dir, name)))
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', ...fromPath, '/snap/bin/chromium']
}

function playwrightOwnChromium() {
  try {
    return require('playwright-core').chromium.executablePath()
  } catch {
    return null // no playwright-core, or no browser registry for this platform
  }
}

function loadSparticuz() {
  try {
    const loaded = require('@sparticuz/chromium')
    return loaded.default ?? loaded
  } catch {
    return null // the optional dependency is not installed (other platforms, or an old Node)
  }
}

/** Where `@sparticuz/chromium` extracts its browser; present once an earlier run extracted it. */
const SPARTICUZ_EXTRACTED_PATH = join(tmpdir(), 'chromium')

function defaults(options) {
  return {
    env: options.env ?? process.env,
    platform: options.platform ?? process.platform,
    arch: options.arch ?? process.arch,
    exists: options.exists ?? existsSync,
    installedPaths: options.installedPaths,
    playwrightPath: options.playwrightPath ?? playwrightOwnChromium,
    loadSparticuz: options.loadSparticuz ?? loadSparticuz
  }
}

/** The candidates that need no extraction, in order, each with where it came from. */
function readyCandidates(o) {
  const installed = o.installedPaths ?? installedChromiumPaths(o.platform, o.env)
  return [
    { path: o.env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' },
    ...installed.map((path) => ({ path, source: 'installed' })),
    { path: o.playwrightPath(), source: 'playwright' }
  ]
}

const sparticuzApplies = (o) => o.platform === 'linux' && o.arch === 'x64'

/**
 * @returns {Promise<{ path: string, source: string } | { path: null, advice: string }>}
 */
async function findChromium(options = {}) {
  const o = defaults(options)
  const ready = readyCandidates(o).find((candidate) => candidate.path && o.exists(candidate.path))
  if (ready) return ready
  if (sparticuzApplies(o)) {
    const sparticuz = o.loadSparticuz()
    if (sparticuz) {
      try {
        const path = await sparticuz.executablePath()
        if (path && o.exists(path)) return { path, source: '@sparticuz/chromium' }
      } catch (error) {
        return { path: null, advice: `${noBrowserAdvice(o)}\n(@sparticuz/chromium could not be extracted: ${error.message})` }
      }
    }
  }
  return { path: null, advice: noBrowserAdvice(o) }
}

/**
 * The same order without extracting anything, for places that cannot wait (playwright.config.ts):
 * the `@sparticuz/chromium` browser counts only once extracted.
 */
function findChromiumSync(options = {}) {
  const o = defaults(options)
  const candidates = [...readyCandidates(o)]
  if (sparticuzApplies(o)) candidates.push({ path: SPARTICUZ_EXTRACTED_PATH, source: '@sparticuz/chromium' })
  return candidates.find((candidate) => candidate.path && o.exists(candidate.path)) ?? null
}

/** How to get a browser on this platform, for the one line a run prints when it has none. */
function noBrowserAdvice({ platform = process.platform, arch = process.arch } = {}) {
  const setPath = 'or set CHROMIUM_PATH to a Chromium/Chrome binary'
  if (platform === 'darwin') return `no Chromium found: install Google Chrome or Chromium (brew install --cask chromium), ${setPath}`
  if (platform === 'win32') return `no Chromium found: install Google Chrome, or run \`npx playwright install chromium\`, ${setPath}`
  if (arch !== 'x64') {
    return `no Chromium found: install one (Debian/Ubuntu: \`sudo apt-get install chromium\`), run \`npx playwright install chromium\`, ${setPath}`
  }
  return (
    'no Chromium found: the optional dependency @sparticuz/chromium is not installed (it needs Node ≥ 22.17; ' +
    '`npm install` adds it), or install one (Debian/Ubuntu: `sudo apt-get install chromium`, or ' +
    `\`npx playwright install chromium\`), ${setPath}`
  )
}

module.exports = { findChromium, findChromiumSync, installedChromiumPaths, noBrowserAdvice, SPARTICUZ_EXTRACTED_PATH }
