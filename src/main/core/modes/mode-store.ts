import { execFile } from 'node:child_process'
import { promises as fs, watch as watchPath, type FSWatcher } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { promisify } from 'node:util'
import { writeFileAtomic } from '../fs/atomic-write'
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG, isBuiltInSlug } from '../../../shared/modes/builtin'
import { resolveModes } from '../../../shared/modes/resolve'
import { formatIssues, ModeConfig, type ResolvedMode } from '../../../shared/modes/schema'
import { detectModesFormat, modesToYaml, parseModesText, type ModesFileFormat } from '../../../shared/modes/yaml'
import { fileRegexProblem, matchesFileRegex } from '../../../shared/modes/file-regex'
import { createOwnSaves } from './own-saves'
import { createBuiltInAdditionsFile } from './builtin-additions-file'
import { withAdditions, type BuiltInAdditions } from '../../../shared/modes/builtin-additions'
import {
  globalModesPath,
  loadModeFile,
  projectModesPath,
  roomodesPath,
  type LoadedModeFile,
  type ModeFileLocation,
  type ModeScope
} from './mode-files'

export class ModeStoreError extends Error {
  constructor(
    readonly code: 'invalid_mode' | 'file_broken' | 'not_found' | 'no_workspace' | 'invalid_regex',
    message: string
  ) {
    super(message)
  }
}

export interface ModeFileProblem {
  file: string
  message: string
  line?: number
}

export interface ModesSnapshot {
  modes: ResolvedMode[]
  defaultSlug: string
  problems: ModeFileProblem[]
  warnings: string[]
  files: { project?: string; global: string; roomodes?: string }
}

export interface RegexTestResult {
  matches: string[]
  scanned: number
  /** More files exist than were scanned, or more matched than were returned. */
  truncated: boolean
}

export interface ModeStore {
  list(): Promise<ModesSnapshot>
  /** Create or replace a mode in a scope; `previousSlug` renames. */
  /** `own: false` when the change is not the user's own save (a rule added to a project's mode). */
  save(input: unknown, scope: ModeScope, previousSlug?: string, options?: { own?: boolean }): Promise<ModesSnapshot>
  delete(slug: string, scope: ModeScope): Promise<ModesSnapshot>
  /** Import modes from YAML/JSON text (Modus or Roo format) into a scope, replacing same slugs. */
  /** Without a format, the text's content says whether it is Modus's or Roo's (see `detectModesFormat`). */
  import(
    text: string,
    scope: ModeScope,
    format?: ModesFileFormat
  ): Promise<{ snapshot: ModesSnapshot; imported: string[]; warnings: string[] }>
  /** One mode, or (no slug) every global and project mode, built-in overrides included. */
  export(slug: string | undefined, format: ModesFileFormat): Promise<{ yaml: string; fileName: string }>
  /** Drop a scope's override of a built-in mode, so the built-in applies again. */
  resetBuiltIn(slug: string, scope?: ModeScope): Promise<ModesSnapshot>
  /** Adds to a built-in mode apart from its definition (so the app's updates of it keep reaching the user). */
  addToBuiltIn(slug: string, added: BuiltInAdditions): Promise<ModesSnapshot>
  testRegex(fileRegex: string, limit?: number): Promise<RegexTestResult>
  onChange(listener: (snapshot: ModesSnapshot) => void): () => void
  /**
   * Watch the modes files for edits made outside Modus (a hand-edited YAML, a `git pull`) and
   * notify `onChange` listeners when the modes really changed. Returns the stop function.
   */
  watch(): () => void
}

export interface ModeStoreDeps {
  dataDir: string
  /** The open workspace; undefined when none is open (project scope unavailable). */
  workspaceRoot?: string
  maxScannedFiles?: number
}

const execFileAsync = promisify(execFile)

/** Which project modes the user saves (written and read back) and which records to drop. */
interface OwnChange {
  saved: readonly string[]
  forget?: readonly string[]
}

export function createModeStore(deps: ModeStoreDeps): ModeStore {
  const ownSaves = createOwnSaves(deps.dataDir)
  const additionsFile = createBuiltInAdditionsFile(deps.dataDir)
  const listeners = new Set<(snapshot: ModesSnapshot) => void>()
  const globalLocation: ModeFileLocation = {
    path: globalModesPath(deps.dataDir),
    format: 'modus',
    scope: 'global',
    writable: true
  }
  const projectLocation = (): ModeFileLocation | undefined =>
    deps.workspaceRoot
      ? { path: projectModesPath(deps.workspaceRoot), format: 'modus', scope: 'project', writable: true }
      : undefined
  const rooLocation = (): ModeFileLocation | undefined =>
    deps.workspaceRoot
      ? { path: roomodesPath(deps.workspaceRoot), format: 'roo', scope: 'project', writable: false }
      : undefined

  const loadAll = async () => {
    const project = projectLocation()
    const roo = rooLocation()
    const [globalFile, projectFile, rooFile] = await Promise.all([
      loadModeFile(globalLocation),
      project ? loadModeFile(project) : undefined,
      roo ? loadModeFile(roo) : undefined
    ])
    return { globalFile, projectFile, rooFile }
  }

  const snapshotOf = (
    files: Awaited<ReturnType<typeof loadAll>>,
    ownSlugs: ReadonlySet<string>,
    additions: Record<string, BuiltInAdditions>
  ): ModesSnapshot => {
    const { globalFile, projectFile, rooFile } = files
    const projectModes = [...(projectFile?.modes ?? [])]
    for (const mode of rooFile?.modes ?? [])
      if (!projectModes.some((m) => m.slug === mode.slug)) projectModes.push(mode)
    const loaded = [globalFile, projectFile, rooFile].filter((file): file is LoadedModeFile => Boolean(file))
    return {
      modes: resolveModes({ builtIns: BUILT_IN_MODES, global: globalFile.modes, project: projectModes }).map((mode) =>
        mode.origin === 'project' && ownSlugs.has(mode.slug)
          ? { ...mode, savedByUser: true }
          : mode.origin === 'builtin' && additions[mode.slug]
            ? { ...withAdditions(mode, additions[mode.slug]), additions: additions[mode.slug] }
            : mode
      ),
      defaultSlug: DEFAULT_MODE_SLUG,
      problems: loaded.flatMap((file) => file.problems.map((problem) => ({ file: file.location.path, ...problem }))),
      warnings: loaded.flatMap((file) => file.warnings.map((warning) => `${file.location.path}: ${warning}`)),
      files: {
        project: projectFile?.location.path,
        global: globalFile.location.path,
        roomodes: rooFile?.exists ? rooFile.location.path : undefined
      }
    }
  }

  const list = async () => {
    const files = await loadAll()
    const own =
      deps.workspaceRoot && files.projectFile
        ? await ownSaves.ownSlugs(deps.workspaceRoot, files.projectFile.modes)
        : new Set<string>()
    return snapshotOf(files, own, await additionsFile.read())
  }

  const locationFor = (scope: ModeScope): ModeFileLocation => {
    if (scope === 'global') return globalLocation
    const project = projectLocation()
    if (!project) throw new ModeStoreError('no_workspace', 'Open a workspace to save project modes')
    return project
  }

  /** Read-modify-write of one Modus modes file; a file that does not parse is never overwritten. */
  const update = async (
    scope: ModeScope,
    change: (modes: ModeConfig[]) => ModeConfig[],
    own?: OwnChange
  ): Promise<ModesSnapshot> => {
    const location = locationFor(scope)
    const current = await loadModeFile(location)
    if (current.problems.length > 0) {
      const first = current.problems[0]
      throw new ModeStoreError(
        'file_broken',
        `${location.path}${first.line ? ` line ${first.line}` : ''}: ${first.message}. Fix the file first; Modus will not overwrite it.`
      )
    }
    const next = change(current.modes)
    await writeFileAtomic(location.path, modesToYaml(next, 'modus'))
    if (scope === 'project' && own && deps.workspaceRoot) {
      // What the file holds now, read back: the record names exactly the bytes' meaning, not the input's.
      const written = (await loadModeFile(location)).modes.filter((mode) => own.saved.includes(mode.slug))
      await ownSaves.record(deps.workspaceRoot, written, own.forget)
    }
    const snapshot = await list()
    for (const listener of listeners) listener(snapshot)
    return snapshot
  }

  const parseMode = (input: unknown): ModeConfig => {
    const parsed = ModeConfig.safeParse(input)
    if (!parsed.success) throw new ModeStoreError('invalid_mode', formatIssues(parsed.error).join('\n'))
    const { source: _source, ...mode } = parsed.data
    return mode
  }

  const replaceBySlug = (modes: ModeConfig[], mode: ModeConfig, previousSlug?: string): ModeConfig[] => {
    if (previousSlug && previousSlug !== mode.slug && modes.some((m) => m.slug === mode.slug))
      throw new ModeStoreError(
        'invalid_mode',
        `Duplicate mode slugs are not allowed: a mode '${mode.slug}' already exists`
      )
    const at = modes.findIndex((m) => m.slug === (previousSlug ?? mode.slug))
    return at < 0 ? [...modes, mode] : modes.map((m, index) => (index === at ? mode : m))
  }

  return {
    list,
    save: async (input, scope, previousSlug, options) => {
      const mode = parseMode(input)
      const renamed = previousSlug && previousSlug !== mode.slug ? [previousSlug] : []
      const own = options?.own === false ? { saved: [], forget: renamed } : { saved: [mode.slug], forget: renamed }
      return update(scope, (modes) => replaceBySlug(modes, mode, previousSlug), own)
    },
    delete: async (slug, scope) => {
      const current = await loadModeFile(locationFor(scope))
      if (current.problems.length === 0 && !current.modes.some((mode) => mode.slug === slug))
        throw new ModeStoreError('not_found', `No ${scope} mode '${slug}'`)
      return update(scope, (modes) => modes.filter((mode) => mode.slug !== slug), { saved: [], forget: [slug] })
    },
    import: async (text, scope, format) => {
      const parsed = parseModesText(text, format ?? detectModesFormat(text)?.format ?? 'roo')
      if (!parsed.ok)
        throw new ModeStoreError(
          'invalid_mode',
          parsed.problems.map((p) => (p.line ? `line ${p.line}: ${p.message}` : p.message)).join('\n')
        )
      if (parsed.modes.length === 0)
        throw new ModeStoreError('invalid_mode', 'The text holds no modes (expected customModes: [...])')
      const imported = parsed.modes.map((mode) => mode.slug)
      const snapshot = await update(
        scope,
        (modes) => parsed.modes.reduce((acc, mode) => replaceBySlug(acc, mode), modes),
        { saved: imported }
      )
      return { snapshot, imported, warnings: parsed.warnings }
    },
    export: async (slug, format) => {
      const { modes } = await list()
      const chosen =
        slug === undefined ? modes.filter((m) => m.origin !== 'builtin') : modes.filter((m) => m.slug === slug)
      if (chosen.length === 0)
        throw new ModeStoreError(
          'not_found',
          slug === undefined ? 'There are no modes of your own to export yet' : `No mode '${slug}'`
        )
      const configs = chosen.map(
        ({ origin: _origin, overridesBuiltIn: _override, savedByUser: _own, additions: _added, ...config }) => config
      )
      const base = slug ?? 'all-modes'
      const fileName = format === 'roo' ? `${base}.roomodes` : `${base}.modes.yaml`
      return { yaml: modesToYaml(configs, format), fileName }
    },
    resetBuiltIn: async (slug, scope) => {
      if (!isBuiltInSlug(slug)) throw new ModeStoreError('not_found', `'${slug}' is not a built-in mode`)
      const scopes: ModeScope[] = scope ? [scope] : deps.workspaceRoot ? ['project', 'global'] : ['global']
      await additionsFile.clear(slug)
      let snapshot = await list()
      for (const each of scopes) {
        const file = await loadModeFile(locationFor(each))
        if (file.modes.some((mode) => mode.slug === slug))
          snapshot = await update(each, (modes) => modes.filter((mode) => mode.slug !== slug), {
            saved: [],
            forget: [slug]
          })
      }
      return snapshot
    },
    async addToBuiltIn(slug, added) {
      if (!isBuiltInSlug(slug)) throw new ModeStoreError('not_found', `'${slug}' is not a built-in mode`)
      await additionsFile.add(slug, added)
      const snapshot = await list()
      for (const listener of listeners) listener(snapshot)
      return snapshot
    },
    testRegex: (fileRegex, limit = 200) => testFileRegex(deps, fileRegex, limit),
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    watch() {
      const dirs = [
        deps.dataDir,
        ...(deps.workspaceRoot ? [deps.workspaceRoot, join(deps.workspaceRoot, '.modus')] : [])
      ]
      const names = new Set(['modes.yaml', '.roomodes'])
      let last = ''
      let timer: NodeJS.Timeout | undefined
      const check = async () => {
        const snapshot = await list()
        const key = JSON.stringify(snapshot)
        if (key === last) return
        last = key
        for (const listener of listeners) listener(snapshot)
      }
      const watchers: FSWatcher[] = []
      for (const dir of dirs) {
        try {
          watchers.push(
            watchPath(dir, (_event, file) => {
              if (file && !names.has(String(file))) return
              clearTimeout(timer)
              // Editors write in several steps: read once things settle.
              timer = setTimeout(() => void check().catch(() => undefined), 100)
            })
          )
        } catch {
          // A directory that does not exist yet (no .modus/) has nothing to watch.
        }
      }
      return () => {
        clearTimeout(timer)
        for (const watcher of watchers) watcher.close()
      }
    }
  }
}

const SKIPPED_DIRS = new Set([
  '.git',
  'node_modules',
  'dist',
  'out',
  'build',
  '.next',
  'target',
  'vendor',
  '__pycache__',
  '.venv',
  'venv'
])

async function workspaceFiles(root: string, max: number): Promise<{ files: string[]; truncated: boolean }> {
  try {
    const { stdout } = await execFileAsync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024
    })
    const files = stdout.split('\0').filter(Boolean)
    return { files: files.slice(0, max), truncated: files.length > max }
  } catch {
    return walk(root, max)
  }
}

async function walk(root: string, max: number): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = []
  const queue = [root]
  while (queue.length > 0) {
    const dir = queue.shift() as string
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) queue.push(full)
      } else if (entry.isFile()) {
        if (files.length >= max) return { files, truncated: true }
        files.push(relative(root, full).split(sep).join('/'))
      }
    }
  }
  return { files, truncated: false }
}

/** The workspace files a mode's fileRegex would let it edit (a few thousand files at most). */
async function testFileRegex(deps: ModeStoreDeps, fileRegex: string, limit: number): Promise<RegexTestResult> {
  const problem = fileRegexProblem(fileRegex)
  if (problem) throw new ModeStoreError('invalid_regex', problem)
  if (!deps.workspaceRoot) throw new ModeStoreError('no_workspace', 'Open a workspace to test a file pattern')
  const { files, truncated } = await workspaceFiles(deps.workspaceRoot, deps.maxScannedFiles ?? 5000)
  const matched = files.filter((file) => matchesFileRegex(fileRegex, file))
  return { matches: matched.slice(0, limit), scanned: files.length, truncated: truncated || matched.length > limit }
}
