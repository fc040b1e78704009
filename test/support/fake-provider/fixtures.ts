import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sharedDir } from '../shared-dir'

export interface FixtureEntry {
  name: string
  file: string
  provider: 'anthropic' | 'openai'
  kind: string
  status: number
  headers: Record<string, string>
  request: unknown
  expect: any
}

/** ../shared/fixtures/llm relative to the project root (absent in a user's clone). */
export const defaultFixturesDir = resolve(sharedDir, 'fixtures/llm')

export function createFixtureLibrary(dir: string = defaultFixturesDir) {
  let byName: Map<string, FixtureEntry> | null = null

  const load = (): Map<string, FixtureEntry> => {
    if (byName) return byName
    const manifestPath = join(dir, 'manifest.json')
    if (!existsSync(manifestPath)) throw new Error(`fake provider: fixtures not present (${manifestPath} missing)`)
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { fixtures: FixtureEntry[] }
    byName = new Map(manifest.fixtures.map((entry) => [entry.name, entry]))
    return byName
  }

  return {
    present: (): boolean => existsSync(join(dir, 'manifest.json')),
    entries: (): FixtureEntry[] => [...load().values()],
    get(name: string): FixtureEntry {
      const entry = load().get(name)
      if (!entry) throw new Error(`fake provider: no fixture named "${name}" in ${dir}/manifest.json`)
      return entry
    },
    body: (entry: FixtureEntry): Buffer => readFileSync(join(dir, entry.file))
  }
}

export type FixtureLibrary = ReturnType<typeof createFixtureLibrary>
