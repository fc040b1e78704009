import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { brotliCompressSync } from 'node:zlib'
import {
  SPARTICUZ_EXTRACTED_PATH,
  findChromium,
  findChromiumSync,
  installedChromiumPaths
} from '../../../src/main/core/browser/find-chromium'

// Each candidate is a real file in a temp dir; removing one shows which comes next.
let dir: string
const browser = (name: string) => join(dir, name)
// A candidate is chosen only if it answers `--version`: each fake browser does, as a real one would.
const make = (...names: string[]) =>
  names.forEach((name) => writeFileSync(browser(name), '#!/bin/sh\necho "Chromium 143.0.7499.40"\n', { mode: 0o755 }))
const stub = (name: string, body: string) => writeFileSync(browser(name), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
const remove = (name: string) => rmSync(browser(name))

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'modus-chromium-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function probes(extracted: string[] = []) {
  return {
    env: { CHROMIUM_PATH: browser('from-env') },
    platform: 'linux',
    arch: 'x64',
    installedPaths: [browser('usr-bin-chromium'), browser('google-chrome')],
    playwrightPath: () => browser('playwright-chrome'),
    loadSparticuz: () => ({
      executablePath: async () => {
        make('sparticuz-chromium')
        extracted.push('sparticuz')
        return browser('sparticuz-chromium')
      }
    })
  }
}

describe('browser discovery order', () => {
  it("passes over a browser that does not run: Ubuntu's chromium-browser snap stub, one that hangs", async () => {
    stub(
      'usr-bin-chromium-browser',
      `echo "Command '/usr/bin/chromium-browser' requires the chromium snap to be installed." >&2\necho "Please install it with: snap install chromium" >&2\nexit 1`
    )
    stub('hangs', 'sleep 30')
    stub('silent', 'exit 0')
    make('google-chrome')
    const candidates = {
      ...probes(),
      env: {},
      versionTimeoutMs: 1_000,
      installedPaths: [
        browser('usr-bin-chromium-browser'),
        browser('hangs'),
        browser('silent'),
        browser('google-chrome')
      ]
    }
    expect(await findChromium(candidates)).toEqual({ path: browser('google-chrome'), source: 'installed' })
    expect(findChromiumSync(candidates)).toEqual({ path: browser('google-chrome'), source: 'installed' })
    // With nothing else, the advice names what was found and why it was not used.
    remove('google-chrome')
    const none = await findChromium({ ...candidates, playwrightPath: () => null, loadSparticuz: () => null })
    expect(none.path).toBeNull()
    expect('advice' in none && none.advice).toContain(
      `Found but not answering \`--version\`, so not used: ${browser('usr-bin-chromium-browser')}, ${browser('hangs')}, ${browser('silent')}`
    )
  })

  it('takes CHROMIUM_PATH, then an installed browser, then Playwright’s own, then @sparticuz/chromium', async () => {
    const extracted: string[] = []
    make('from-env', 'usr-bin-chromium', 'google-chrome', 'playwright-chrome')
    expect(await findChromium(probes(extracted))).toEqual({ path: browser('from-env'), source: 'CHROMIUM_PATH' })
    remove('from-env')
    expect(await findChromium(probes(extracted))).toEqual({ path: browser('usr-bin-chromium'), source: 'installed' })
    remove('usr-bin-chromium')
    expect(await findChromium(probes(extracted))).toEqual({ path: browser('google-chrome'), source: 'installed' })
    remove('google-chrome')
    expect(await findChromium(probes(extracted))).toEqual({ path: browser('playwright-chrome'), source: 'playwright' })
    expect(extracted).toEqual([]) // nothing is extracted while another browser exists
    remove('playwright-chrome')
    expect(await findChromium(probes(extracted))).toEqual({
      path: browser('sparticuz-chromium'),
      source: '@sparticuz/chromium'
    })
    expect(extracted).toEqual(['sparticuz'])
  })

  it('uses @sparticuz/chromium only on Linux x64 and says how to get a browser elsewhere', async () => {
    for (const [platform, arch, hint] of [
      ['darwin', 'arm64', 'brew install --cask chromium'],
      ['win32', 'x64', 'npx playwright install chromium'],
      ['linux', 'arm64', 'sudo apt-get install chromium']
    ]) {
      const found = await findChromium({ ...probes(), platform, arch })
      expect(found.path).toBeNull()
      expect('advice' in found && found.advice).toContain(hint)
      expect('advice' in found && found.advice).toContain('CHROMIUM_PATH')
    }
  })

  it('names the missing optional dependency when nothing at all is found on Linux x64', async () => {
    const found = await findChromium({ ...probes(), loadSparticuz: () => null })
    expect(found.path).toBeNull()
    expect('advice' in found && found.advice).toMatch(/@sparticuz\/chromium is not installed/)
  })

  it('reports an extraction failure instead of throwing', async () => {
    const failing = { executablePath: async () => Promise.reject(new Error('disk full')) }
    const found = await findChromium({ ...probes(), loadSparticuz: () => failing })
    expect('advice' in found && found.advice).toContain('could not be extracted: disk full')
  })

  it('the synchronous form (playwright.config.ts) keeps the order and never extracts', () => {
    make('playwright-chrome')
    expect(findChromiumSync(probes())).toEqual({ path: browser('playwright-chrome'), source: 'playwright' })
    const extracted: string[] = []
    const onlyExtracted = { ...probes(extracted), exists: (path: string) => path === SPARTICUZ_EXTRACTED_PATH }
    expect(findChromiumSync(onlyExtracted)).toEqual({ path: SPARTICUZ_EXTRACTED_PATH, source: '@sparticuz/chromium' })
    expect(findChromiumSync({ ...onlyExtracted, platform: 'darwin' })).toBeNull()
    expect(extracted).toEqual([])
  })

  it('on a Linux without NSS, runs the packed browser with the libraries packed beside it', async () => {
    // The package's bin folder, with the archive of libraries the browser links to.
    const bin = join(dir, 'package-bin')
    execFileSync('mkdir', ['-p', join(dir, 'pack', 'lib'), bin])
    writeFileSync(join(dir, 'pack', 'lib', 'libnss3.so'), 'not really a library')
    writeFileSync(
      join(bin, 'al2023.tar.br'),
      brotliCompressSync(execFileSync('tar', ['-C', join(dir, 'pack'), '-cf', '-', 'lib']))
    )
    // The "browser" prints where its libraries come from and the arguments it got.
    writeFileSync(browser('sparticuz-chromium'), '#!/bin/sh\necho "libs=$LD_LIBRARY_PATH args=$*"\n', { mode: 0o755 })
    const scratch = join(dir, 'scratch')
    const lacksNss = (_binary: string, libDir?: string) =>
      libDir && existsSync(join(libDir, 'libnss3.so')) ? [] : ['libnss3.so']
    const sparticuz = () => ({ executablePath: async () => browser('sparticuz-chromium'), binDir: bin })
    const options = {
      ...probes(),
      env: {},
      installedPaths: [],
      playwrightPath: () => null,
      loadSparticuz: sparticuz,
      scratchDir: scratch
    }

    const found = await findChromium({ ...options, missingLibraries: lacksNss })
    expect(found).toEqual({ path: join(scratch, 'chromium-with-libs'), source: '@sparticuz/chromium' })
    const ran = execFileSync(found.path as string, ['--headless', "it's"], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH }
    })
    expect(ran.trim()).toBe(`libs=${join(scratch, 'al2023', 'lib')} args=--headless it's`)
    expect(findChromiumSync({ ...options, exists: existsSync })).toEqual({
      path: join(scratch, 'chromium-with-libs'),
      source: '@sparticuz/chromium'
    })

    // With the system's own libraries the browser runs as it is; libraries nothing provides are named.
    expect(await findChromium({ ...options, scratchDir: join(dir, 'other'), missingLibraries: () => [] })).toEqual({
      path: browser('sparticuz-chromium'),
      source: '@sparticuz/chromium'
    })
    const missing = await findChromium({ ...options, missingLibraries: () => ['libgbm.so.1'] })
    expect('advice' in missing && missing.advice).toContain('lacks libgbm.so.1')
  })

  it('looks the usual browser names up on PATH on Linux', () => {
    make('chromium')
    const paths = installedChromiumPaths('linux', { PATH: dir })
    expect(paths.indexOf('/usr/bin/chromium')).toBe(0)
    expect(paths).toContain(browser('chromium'))
  })
})

// npm skips an optional dependency whose `engines` exclude the running Node: on the oldest Node the
// project supports, `npm install` must still bring the fallback browser.
describe('the @sparticuz/chromium fallback installs on every Node the project supports', () => {
  const version = (text: string) => text.split('.').map(Number) as [number, number, number]
  const atLeast = (a: number[], b: number[]) =>
    a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2]
  // The range forms npm packages use here: `>=x.y.z`, `^x.y.z`, joined by `||`.
  const satisfies = (node: string, range: string) =>
    range.split('||').some((part) => {
      const [, op, v] = /^\s*(>=|\^)(\d+\.\d+\.\d+)\s*$/.exec(part) ?? []
      if (!op || !v) throw new Error(`unexpected engines range "${range}"`)
      return atLeast(version(node), version(v)) && (op === '>=' || version(node)[0] === version(v)[0])
    })

  it('its engines admit the lowest Node of package.json’s engines', () => {
    const root = join(__dirname, '../../..')
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
    const lowestNode = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)?.[1] as string
    expect(pkg.optionalDependencies['@sparticuz/chromium']).toBeDefined()
    const locked = lock.packages['node_modules/@sparticuz/chromium']
    expect(locked.version).toBe(pkg.optionalDependencies['@sparticuz/chromium'])
    expect(satisfies(lowestNode, locked.engines.node), `Node ${lowestNode} against ${locked.engines.node}`).toBe(true)
    expect(satisfies('24.0.0', locked.engines.node)).toBe(true)
  })
})
