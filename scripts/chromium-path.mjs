// Finds a Chromium for Playwright: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own browser.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  try {
    const { chromium } = createRequire(import.meta.url)('playwright')
    candidates.push(chromium.executablePath())
  } catch {
    // Playwright without its own browser download: fine, the candidates above may still hold one.
  }
  return candidates.find((path) => path && existsSync(path)) ?? null
}
