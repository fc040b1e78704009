// `npm run typecheck`: one TypeScript project per environment, so the compiler enforces the layers —
// src/shared sees neither DOM nor Node types, the core and the CLI see Node's, the renderer the DOM's;
// tsconfig.json checks the tests, e2e specs, benchmarks and configs against them.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

export const PROJECTS = ['tsconfig.shared.json', 'tsconfig.node.json', 'tsconfig.renderer.json', 'tsconfig.json']

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..')
const tsc = resolve(root, 'node_modules/.bin/tsc')

export function typecheck() {
  let failed = 0
  for (const project of PROJECTS) {
    const status = spawnSync(tsc, ['--noEmit', '-p', project], { cwd: root, stdio: 'inherit' }).status
    if (status !== 0) {
      console.error(`typecheck: ${project} failed`)
      failed++
    }
  }
  return failed
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const failed = typecheck()
  console.log(failed === 0 ? `typecheck: ok (${PROJECTS.join(', ')})` : `typecheck: ${failed} project(s) failed`)
  process.exit(failed === 0 ? 0 : 1)
}
