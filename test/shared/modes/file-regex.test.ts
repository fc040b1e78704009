import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileRegexProblem, matchesFileRegex } from '../../../src/shared/modes/file-regex'
import { ModeConfig } from '../../../src/shared/modes/schema'

const root = resolve(__dirname, '../../..')

describe('file patterns run on a linear-time engine', () => {
  it('a catastrophic pattern from a project file answers at once instead of freezing the core', async () => {
    const probe = spawn(
      process.execPath,
      [join(root, 'node_modules/jiti/lib/jiti-cli.mjs'), join(__dirname, 'support/redos-probe.ts')],
      {
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    let out = ''
    probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    // A backtracking engine needs ~2^48 steps here; the child is killed rather than waited for.
    const killer = setTimeout(() => probe.kill('SIGKILL'), 20_000)
    const code = await new Promise<number | null>((done) => probe.on('exit', (c) => done(c)))
    clearTimeout(killer)
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'FileRestrictionError' })
  }, 30_000)

  it('matches like RegExp.test for the syntax both share', () => {
    expect(matchesFileRegex('\\.(md|mdx)$', 'docs/guide.md')).toBe(true)
    expect(matchesFileRegex('\\.(md|mdx)$', 'src/app.ts')).toBe(false)
    expect(matchesFileRegex('^src/.*\\.tsx?$', 'src/ui/App.tsx')).toBe(true)
  })

  it('says which syntax is not supported, and tells a typo apart', () => {
    expect(fileRegexProblem('^(?!secret).*\\.md$')).toMatch(
      /Not supported in file patterns: .*\(\?!.*no lookahead, lookbehind or backreferences/
    )
    expect(fileRegexProblem('(a)\\1')).toMatch(/Not supported in file patterns/)
    expect(fileRegexProblem('([')).toMatch(/^Invalid regular expression: /)
    expect(fileRegexProblem('^(a+)+$')).toBeNull()
  })

  it('a modes file with lookaround is refused with the reason', () => {
    const parsed = ModeConfig.safeParse({
      slug: 'docs',
      name: 'Docs',
      roleDefinition: 'x',
      groups: ['read', ['edit', { fileRegex: '(?<=docs/).*' }]]
    })
    expect(parsed.success).toBe(false)
    expect(JSON.stringify(parsed.error?.issues)).toMatch(/Not supported in file patterns/)
  })
})
