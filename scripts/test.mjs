// `npm test`: builds, then runs every suite — vitest (unit, integration, conformance) and Playwright
// (e2e against the built web host in Chromium) — and ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { findChromium } from './chromium-path.mjs'

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..')
const bin = (name) => resolve(root, 'node_modules/.bin', name)
const run = (command, args, env = {}) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1

const chromium = findChromium()
if (!chromium) {
  console.error(
    '\nnpm test: no Chromium found for the e2e suite.\n' +
      'Install one (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium/Chrome binary.\n'
  )
  console.log('0 passed, 1 failed')
  process.exit(1)
}

if (run(bin('electron-vite'), ['build']) !== 0) {
  console.error('npm test: the build failed')
  console.log('0 passed, 1 failed')
  process.exit(1)
}

const vitestJson = resolve(root, '.vitest-results.json')
const playwrightJson = resolve(root, '.playwright-results.json')
rmSync(vitestJson, { force: true })
rmSync(playwrightJson, { force: true })

const vitestStatus = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`])
const playwrightStatus = run(bin('playwright'), ['test'], { CHROMIUM_PATH: chromium, MODUS_PW_JSON: playwrightJson })

const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null)
const vitest = readJson(vitestJson)
const playwright = readJson(playwrightJson)

const unit = vitest
  ? { passed: vitest.numPassedTests, failed: vitest.numFailedTests, skipped: vitest.numPendingTests + vitest.numTodoTests }
  : { passed: 0, failed: 1, skipped: 0 } // the runner itself crashed
const e2e = playwright
  ? {
      passed: playwright.stats.expected + playwright.stats.flaky,
      failed: playwright.stats.unexpected + (playwright.errors?.length ?? 0),
      skipped: playwright.stats.skipped
    }
  : { passed: 0, failed: 1, skipped: 0 }
// A runner that failed without a failing test (e.g. a suite that could not load) still fails the run.
if (vitestStatus !== 0 && unit.failed === 0) unit.failed = 1
if (playwrightStatus !== 0 && e2e.failed === 0) e2e.failed = 1

console.log(`\nvitest: ${unit.passed} passed, ${unit.failed} failed, ${unit.skipped} skipped`)
console.log(`playwright: ${e2e.passed} passed, ${e2e.failed} failed, ${e2e.skipped} skipped`)
console.log(`${unit.passed + e2e.passed} passed, ${unit.failed + e2e.failed} failed`)
process.exit(unit.failed + e2e.failed === 0 ? 0 : 1)
