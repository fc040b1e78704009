import { promises as fs } from 'node:fs'
import type { z } from 'zod'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { writeFileAtomic } from '../fs/atomic-write'
import { locateJsonError } from './json-error'
import { defaultSettings, SettingsFile, type Settings } from './settings-schema'

/**
 * Settings in one JSON file, validated on load. A file that does not parse or validate is reported
 * and left exactly as it is: the app runs on defaults and refuses to overwrite it until it is fixed.
 */
export interface SettingsStore {
  get(): Settings
  /** Problems found when loading; empty when the file is valid or absent. */
  problems(): string[]
  reload(): Promise<void>
  update(change: (current: Settings) => Settings): Promise<Settings>
}

export async function createSettingsStore(file: string): Promise<SettingsStore> {
  let settings = defaultSettings()
  let problems: string[] = []

  const reload = async () => {
    const loaded = await loadSettingsFile(file)
    settings = loaded.settings
    problems = loaded.problems
  }
  await reload()

  return {
    get: () => settings,
    problems: () => [...problems],
    reload,
    async update(change) {
      if (problems.length > 0) {
        throw new UserFacingError(
          'settings_broken',
          `Settings were not saved: ${file} has errors and is kept as it is until you fix it. ${problems.join(' ')}`
        )
      }
      const next = SettingsFile.parse(change(settings))
      await writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n')
      settings = next
      return settings
    }
  }
}

export async function loadSettingsFile(file: string): Promise<{ settings: Settings; problems: string[] }> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: defaultSettings(), problems: [] }
    return { settings: defaultSettings(), problems: [`${file}: cannot be read (${(error as Error).message}).`] }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    const where = locateJsonError(text.replace(/^\uFEFF/, ''))
    const position = where
      ? ` at line ${where.line}, column ${where.column}: ${where.message}`
      : `: ${(error as Error).message}`
    return {
      settings: defaultSettings(),
      problems: [`${file} is not valid JSON${position}. The file was kept unchanged.`]
    }
  }
  const parsed = SettingsFile.safeParse(raw)
  if (!parsed.success) {
    return {
      settings: defaultSettings(),
      problems: [`${file} is invalid: ${formatIssues(parsed.error)}. The file was kept unchanged.`]
    }
  }
  return { settings: parsed.data, problems: [] }
}

const formatIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')
