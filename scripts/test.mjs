// `npm test`: type-checks every environment, lints (ESLint + Prettier), builds, then runs every suite — vitest (unit, integration, conformance) and Playwright
// (e2e against the built web host in Chromium) — and ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadFindChromium } from './find-chromium.mjs'
import { lint } from './lint.mjs'
import { typecheck } from './typecheck.mjs'

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..')
const bin = (name) => resolve(root, 'node_modules/.bin', name)
const run = (command, args, env = {}) =>
  spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1

// Without a browser the unit suites still run; only the e2e part fails, with its own line.
const chromium = await (await loadFindChromium()).findChromium()
if (chromium.path && chromium.source !== 'CHROMIUM_PATH')
  console.log(`npm test: Chromium from ${chromium.source}: ${chromium.path}`)

if (typecheck() !== 0) {
  console.error('npm test: the typecheck failed')
  console.log('0 passed, 1 failed')
  process.exit(1)
}

// A lint finding fails the run, but the suites still run so one report shows everything.
const lintPassed = lint()

if (run(bin('electron-vite'), ['build']) !== 0) {
  console.error('npm test: the build failed')
  console.log('0 passed, 1 failed')
  process.exit(1)
}

const vitestJson = resolve(root, '.vitest-results.json')
const playwrightJson = resolve(root, '.playwright-results.json')
rmSync(vitestJson, { force: true })
rmSync(playwrightJson, { force: true })

const vitestStatus = run(bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`
])
const playwrightStatus = chromium.path
  ? run(bin('playwright'), ['test'], { CHROMIUM_PATH: chromium.path, MODUS_PW_JSON: playwrightJson })
  : 1

const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null)
const vitest = readJson(vitestJson)
const playwright = readJson(playwrightJson)

const unit = vitest
  ? {
      passed: vitest.numPassedTests,
      failed: vitest.numFailedTests,
      skipped: vitest.numPendingTests + vitest.numTodoTests
    }
  : { passed: 0, failed: 1, skipped: 0 } // the runner itself crashed
const e2e = !chromium.path
  ? { passed: 0, failed: 1, skipped: 0 }
  : playwright
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
console.log(
  chromium.path
    ? `playwright: ${e2e.passed} passed, ${e2e.failed} failed, ${e2e.skipped} skipped`
    : `playwright: not run, 1 failed: ${chromium.advice}`
)
if (!lintPassed) console.log('lint: 1 failed (ESLint or Prettier, see above)')
const failed = unit.failed + e2e.failed + (lintPassed ? 0 : 1)
console.log(`${unit.passed + e2e.passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
