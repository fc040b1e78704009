// Types for chromium-path.cjs, used by playwright.config.ts and the tests.
export type ChromiumSource = 'CHROMIUM_PATH' | 'installed' | 'playwright' | '@sparticuz/chromium'
export type FoundChromium = { path: string; source: ChromiumSource }
export type ChromiumProbes = {
  env?: Record<string, string | undefined>
  platform?: string
  arch?: string
  exists?: (path: string) => boolean
  installedPaths?: string[]
  playwrightPath?: () => string | null
  loadSparticuz?: () => { executablePath(): Promise<string> } | null
}
export function findChromium(options?: ChromiumProbes): Promise<FoundChromium | { path: null; advice: string }>
export function findChromiumSync(options?: ChromiumProbes): FoundChromium | null
export function installedChromiumPaths(platform?: string, env?: Record<string, string | undefined>): string[]
export function noBrowserAdvice(options?: { platform?: string; arch?: string }): string
export const SPARTICUZ_EXTRACTED_PATH: string
