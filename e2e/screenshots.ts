import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { test, type Page } from '@playwright/test'

/**
 * README screenshots are refreshed on demand: `npx electron-vite build`, then
 * `MODUS_SCREENSHOTS=1 npx playwright test e2e/chat.spec.ts e2e/approvals.spec.ts e2e/review.spec.ts e2e/modes.spec.ts`
 * (or `MODUS_SCREENSHOTS=1 npm run test:e2e`). Each is taken in the light and the dark theme (`<name>-dark.png`);
 * the page goes back to light afterwards so the test carries on as it was.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (!process.env.MODUS_SCREENSHOTS) return
  // Two full-page captures and a theme switch: room for them on a loaded machine.
  test.info().setTimeout(test.info().timeout + 30_000)
  const dir = resolve(__dirname, '../docs/screenshots')
  mkdirSync(dir, { recursive: true })
  await page.mouse.move(0, 0)
  for (const [scheme, suffix] of [
    ['light', ''],
    ['dark', '-dark']
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    // Two frames: the theme's styles (and Monaco's theme, which follows the media query) are painted.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    await page.screenshot({ path: join(dir, `${name}${suffix}.png`) })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}
