import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'

/** README screenshots are refreshed on demand: `MODUS_SCREENSHOTS=1 npm run test:e2e`. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (!process.env.MODUS_SCREENSHOTS) return
  const dir = resolve(__dirname, '../docs/screenshots')
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}.png`) })
}
