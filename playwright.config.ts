import { defineConfig } from '@playwright/test'
import { findChromiumSync } from './src/main/core/browser/find-chromium'

// `npm test` resolves the browser first (extracting @sparticuz/chromium if that is the one) and
// passes it as CHROMIUM_PATH; a direct `npx playwright test` takes the same order without extracting.
const chromium = findChromiumSync()?.path

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  // Each spec starts its own web host and data dir, so two run at once: the whole suite took 12.3 min
  // with two workers where one took 23.7 min at a similar load.
  workers: 2,
  // CI retries a failed spec once; a spec that passes on retry is reported as flaky in the JSON summary.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.MODUS_PW_JSON ? [['list'], ['json', { outputFile: process.env.MODUS_PW_JSON }]] : [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      // Without a path, Playwright falls back to its own browser if one was downloaded.
      ...(chromium ? { executablePath: chromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    }
  }
})
