import type { Stats } from 'node:fs'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { findChromium } from '../../src/main/core/browser/find-chromium'

/**
 * `@sparticuz/chromium` (64 MB, a Linux x64 browser) goes only into the Linux x64 package. Checked
 * with electron-builder's own node_modules matcher over electron-builder.yml: `npm run dist` cannot
 * run here (the Electron download is blocked), so this is what decides the packages' contents.
 */
const root = resolve(__dirname, '../..')
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'))
const { getNodeModuleFileMatcher } = createRequire(import.meta.url)('app-builder-lib/out/fileMatcher') as {
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    expand: (s: string) => string,
    platform: object,
    packager: object
  ): {
    createFilter(): (file: string, stat: Stats) => boolean
  }
}

const fileStat = { isDirectory: () => false } as Stats
const dirStat = { isDirectory: () => true } as Stats

/** Whether the package for `platform` copies the node_modules file or folder at `rel`. */
function packs(platform: 'linux' | 'mac' | 'win', rel: string, stat = fileStat): boolean {
  const matcher = getNodeModuleFileMatcher(root, '/packaged/app', (s) => s, config[platform] ?? {}, {
    config,
    debugLogger: { isEnabled: false }
  })
  return matcher.createFilter()(join(root, rel), stat)
}

const SPARTICUZ_FILES = [
  'node_modules/@sparticuz/chromium/package.json',
  'node_modules/@sparticuz/chromium/bin/chromium.br',
  'node_modules/@sparticuz/chromium/bin/al2023.tar.br'
]

describe('@sparticuz/chromium in the packages', () => {
  it('is left out of the macOS and Windows packages, folder and files', () => {
    for (const platform of ['mac', 'win'] as const) {
      expect(packs(platform, 'node_modules/@sparticuz/chromium', dirStat), platform).toBe(false)
      for (const file of SPARTICUZ_FILES) expect(packs(platform, file), `${platform} ${file}`).toBe(false)
    }
  })

  it('is packed into the Linux package, and only x64 Linux packages are built', () => {
    for (const file of SPARTICUZ_FILES) expect(packs('linux', file), file).toBe(true)
    expect(config.linux.target).toEqual([
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] }
    ])
  })

  it('leaves every other dependency in all three packages', () => {
    for (const platform of ['linux', 'mac', 'win'] as const) {
      for (const file of [
        'node_modules/node-pty/package.json',
        'node_modules/openai/package.json',
        'node_modules/@anthropic-ai/sdk/package.json'
      ]) {
        expect(packs(platform, file), `${platform} ${file}`).toBe(true)
      }
    }
  })

  it('the app does not look for it on macOS, Windows or Linux arm64, and says how to get a browser', async () => {
    for (const [platform, arch] of [
      ['darwin', 'arm64'],
      ['win32', 'x64'],
      ['linux', 'arm64']
    ]) {
      const lookup = await findChromium({
        platform,
        arch,
        env: {},
        installedPaths: [],
        playwrightPath: () => null,
        loadSparticuz: () => {
          throw new Error(`loaded @sparticuz/chromium on ${platform} ${arch}`)
        }
      })
      expect(lookup).toMatchObject({ path: null, advice: expect.stringContaining('No Chromium found') })
    }
  })
})
