import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The README says which Node the CLI and web host need and which dependencies declare a higher one:
 * kept true against package.json and the installed dependencies' own `engines`.
 */
const root = resolve(__dirname, '../..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string }
  dependencies: Record<string, string>
}
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const whichNode = readme.slice(
  readme.indexOf('**Which Node.**'),
  readme.indexOf('`npm start` needs an Electron runtime')
)

/** The lowest major.minor a `>=x.y` range admits (enough for the ranges dependencies write). */
const lowest = (range: string): [number, number] | null => {
  const match = /^\s*>=?\s*(\d+)(?:\.(\d+))?/.exec(range)
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : null
}

describe('the Node the CLI and web host need', () => {
  it('the README names the engines minimum of package.json', () => {
    const [major, minor] = lowest(pkg.engines.node)!
    expect(whichNode).toContain(`Node ${major}.${minor} or later`)
  })

  it('the README names every runtime dependency whose engines ask for more, and that is where the tests run', () => {
    const ours = lowest(pkg.engines.node)!
    const higher = Object.keys(pkg.dependencies).filter((name) => {
      const engines = (
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
          engines?: { node?: string }
        }
      ).engines
      const theirs = engines?.node ? lowest(engines.node) : null
      return theirs !== null && (theirs[0] > ours[0] || (theirs[0] === ours[0] && theirs[1] > ours[1]))
    })
    expect(higher.length).toBeGreaterThan(0)
    for (const name of higher) expect(whichNode).toContain(`\`${name}\``)
    // This suite runs on a Node the engines admit.
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
    expect(major > ours[0] || (major === ours[0] && minor >= ours[1])).toBe(true)
  })
})
