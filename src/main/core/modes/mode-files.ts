import { promises as fs } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { parseModesText, type ModesFileFormat, type ModesFileProblem } from '../../../shared/modes/yaml'
import type { ModeConfig } from '../../../shared/modes/schema'

export type ModeScope = 'project' | 'global'

export interface ModeFileLocation {
  path: string
  format: ModesFileFormat
  scope: ModeScope
  /** Modus writes only its own files; Roo's files are read (and importable), never rewritten. */
  writable: boolean
}

export interface LoadedModeFile {
  location: ModeFileLocation
  exists: boolean
  modes: ModeConfig[]
  /** Set when the file exists but cannot be used: it is then kept exactly as it is. */
  problems: ModesFileProblem[]
  warnings: string[]
}

export const projectModesPath = (workspaceRoot: string): string => join(workspaceRoot, '.modus', 'modes.yaml')
export const roomodesPath = (workspaceRoot: string): string => join(workspaceRoot, '.roomodes')
export const globalModesPath = (dataDir: string): string => join(dataDir, 'modes.yaml')

/** Where Roo keeps its global custom modes (VS Code global storage), per platform: import sources. */
export function rooGlobalModesCandidates(home = homedir(), platform = process.platform): string[] {
  const tail = join('User', 'globalStorage', 'rooveterinaryinc.roo-cline', 'settings', 'custom_modes.yaml')
  const bases =
    platform === 'darwin'
      ? [join(home, 'Library', 'Application Support')]
      : platform === 'win32'
        ? [process.env.APPDATA ?? join(home, 'AppData', 'Roaming')]
        : [process.env.XDG_CONFIG_HOME ?? join(home, '.config')]
  return bases.flatMap((base) => ['Code', 'Code - Insiders', 'VSCodium', 'Cursor'].map((app) => join(base, app, tail)))
}

export async function loadModeFile(location: ModeFileLocation): Promise<LoadedModeFile> {
  let text: string
  try {
    text = await fs.readFile(location.path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { location, exists: false, modes: [], problems: [], warnings: [] }
    return {
      location,
      exists: true,
      modes: [],
      problems: [{ message: `Cannot read: ${(error as Error).message}` }],
      warnings: []
    }
  }
  const parsed = parseModesText(text, location.format)
  return parsed.ok
    ? { location, exists: true, modes: parsed.modes, problems: [], warnings: parsed.warnings }
    : { location, exists: true, modes: [], problems: parsed.problems, warnings: [] }
}
