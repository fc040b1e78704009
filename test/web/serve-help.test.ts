import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Issue #28 item 19: `serve.js --help` prints its usage (it said "Unknown option").
const serveJs = join(__dirname, '../../out/main/serve.js')

describe.skipIf(!existsSync(serveJs))('serve.js --help (needs `npx electron-vite build`)', () => {
  it('prints the options and exits 0 without starting a server', () => {
    const run = spawnSync(process.execPath, [serveJs, '--help'], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Usage: node out/main/serve.js [options]')
    expect(run.stdout).toContain('--data-dir <path>')
    expect(run.stdout).not.toContain('serving at')
  })

  it('points at --help after an unknown option', () => {
    const run = spawnSync(process.execPath, [serveJs, '--nope'], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('Run with --help for the options.')
  })
})
