#!/usr/bin/env node
// The headless CLI (`modus run …`, `modus prompt …`): the same core as the app, built into out/main/cli.js.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'

const entry = resolve(import.meta.dirname, '../out/main/cli.js')
if (!existsSync(entry)) {
  console.error('modus: the CLI is not built yet — run `npm run build` in the Modus folder first.')
  process.exit(1)
}
createRequire(import.meta.url)(entry)
