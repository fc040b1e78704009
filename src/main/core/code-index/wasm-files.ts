import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, sep } from 'node:path'

const requireFromHere = createRequire(import.meta.url)

/**
 * Inside a packaged Electron app the grammars are unpacked next to app.asar (electron-builder's
 * asarUnpack); prefer that copy, fall back to the path inside the archive (Electron's fs reads it).
 */
function preferUnpacked(path: string): string {
  const marker = `${sep}app.asar${sep}`
  if (!path.includes(marker)) return path
  const unpacked = path.replace(marker, `${sep}app.asar.unpacked${sep}`)
  return existsSync(unpacked) ? unpacked : path
}

/** The tree-sitter runtime's own wasm, shipped in `web-tree-sitter`. */
export const treeSitterRuntimeWasm = (): string =>
  preferUnpacked(requireFromHere.resolve('web-tree-sitter/web-tree-sitter.wasm'))

/** A grammar shipped in `@vscode/tree-sitter-wasm`, e.g. `typescript` → tree-sitter-typescript.wasm. */
export const grammarWasm = (grammar: string): string =>
  preferUnpacked(
    join(
      dirname(requireFromHere.resolve('@vscode/tree-sitter-wasm/package.json')),
      'wasm',
      `tree-sitter-${grammar}.wasm`
    )
  )
