// The app's browser discovery (src/main/core/browser/find-chromium.ts, the one implementation) for
// the plain-Node scripts: its types stripped by Vite into out/ (so `playwright-core`
// resolves from the repository) and imported from there.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { transformWithOxc } from 'vite'

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..')

export async function loadFindChromium() {
  const path = resolve(root, 'src/main/core/browser/find-chromium.ts')
  const { code } = await transformWithOxc(readFileSync(path, 'utf8'), path, { lang: 'ts' })
  const dir = resolve(root, 'out/scripts')
  mkdirSync(dir, { recursive: true })
  const file = resolve(dir, 'find-chromium.mjs')
  writeFileSync(file, code)
  return import(pathToFileURL(file).href)
}
