// Checks the layer rules of architecture.md on the source tree: what each layer may import.
// Used by test/architecture/layering.test.ts (in CI) and runnable alone: `node scripts/layering.mjs`.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import { firstChunkViolations } from './first-chunk.mjs'

const NODE_BUILTINS = new Set([
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'module',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'string_decoder',
  'timers',
  'tls',
  'tty',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib'
])
const ELECTRON_ALLOWED = [/^src\/main\/electron\//, /^src\/main\/index\.ts$/, /^src\/preload\//]

const IMPORT_PATTERN =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g

export function importsOf(source) {
  const found = []
  for (const match of source.matchAll(IMPORT_PATTERN)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4])
  return found
}

const isNodeBuiltin = (spec) => spec.startsWith('node:') || NODE_BUILTINS.has(spec)

// Globals only a host provides (Node or the browser); src/shared runs in both, so it uses none.
const HOST_GLOBALS = [
  'process',
  'Buffer',
  'require',
  '__dirname',
  '__filename',
  'setImmediate',
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'HTMLElement',
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval'
]
const HOST_GLOBAL_USE = new RegExp(`(?<![.\\w$'"])(${HOST_GLOBALS.join('|')})(?![\\w$])(?!\\s*[:?]?\\s*:)`, 'g')

/** The source without comments and string contents, so only code is searched. */
const codeOnly = (source) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, "''")

const declares = (code, name) => new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b`).test(code)

/**
 * Host globals a file uses as code (not as a property name, inside a string, or a name the file
 * declares itself). A quick check by text; tsconfig.shared.json (no DOM, no Node types) is exact.
 */
export function hostGlobalsIn(source) {
  const code = codeOnly(source)
  const used = new Set([...code.matchAll(HOST_GLOBAL_USE)].map((match) => match[1]))
  return [...used].filter((name) => !declares(code, name))
}

const CORE = 'src/main/core/'
const FEATURES = 'src/renderer/src/features/'
/** What several renderer features share: it sits below every feature, so it imports none. */
const RENDERER_SHARED = ['src/renderer/src/common/', 'src/renderer/src/components/']
/** The core's folders that sit below the tools, checkpoints and sandbox (ARCHITECTURE.md, "Layers"). */
const CORE_BELOW = {
  approvals: ['ports', 'tools', 'checkpoints', 'sandbox', 'mcp', 'loop', 'tasks'],
  ports: ['tools', 'checkpoints', 'sandbox', 'mcp', 'loop', 'tasks'],
  tools: ['loop', 'tasks'],
  checkpoints: ['tools', 'loop', 'tasks'],
  sandbox: ['tools', 'loop', 'tasks'],
  mcp: ['tools', 'loop', 'tasks'],
  loop: ['tasks']
}
/** The composition root: it builds every service; nothing below it imports it. */
const COMPOSITION_ROOT = new Set([`${CORE}create-core.ts`, `${CORE}create-agent-services.ts`])

/**
 * Imports from one renderer feature into another's files that are allowed to stay (issue #27). Fail
 * closed: any other one is a violation, and an entry no longer in the code must leave the list. It is
 * empty: what several features share lives in src/renderer/src/common (or components), and the views
 * that combine features (App.tsx, views.tsx, SettingsView.tsx) sit above src/renderer/src/features.
 */
export const KNOWN_CROSS_FEATURE_IMPORTS = []

const folderUnder = (base, path) => {
  if (!path?.startsWith(base)) return null
  const rest = path.slice(base.length)
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : null
}
const withoutExtension = (path) => path.replace(/\.(ts|tsx|mts|cts|js|mjs)$/, '').replace(/\/index$/, '')

/** Every relative import, as [file, spec, target path] (target without extension). */
function relativeImports(files) {
  const found = []
  for (const [file, source] of Object.entries(files)) {
    for (const spec of importsOf(source)) {
      if (!spec.startsWith('.')) continue
      const target = relative('.', join(dirname(file), spec)).replaceAll('\\', '/')
      // A folder import ('../checkpoints') is its index file.
      const isFolder = ['ts', 'tsx', 'js', 'mjs'].some((ext) => `${target}/index.${ext}` in files)
      found.push([file, spec, isFolder ? `${target}/index` : target])
    }
  }
  return found
}

/** Folders of one area that import each other both ways: the layers inside the core say there are none. */
function twoWayFolderImports(imports, base, say) {
  const edges = new Map()
  for (const [file, spec, target] of imports) {
    const from = folderUnder(base, file)
    const to = folderUnder(base, target)
    if (from && to && from !== to) edges.set(`${from}>${to}`, [...(edges.get(`${from}>${to}`) ?? []), [file, spec]])
  }
  for (const [edge, uses] of edges) {
    const [from, to] = edge.split('>')
    if (!edges.has(`${to}>${from}`)) continue
    for (const [file, spec] of uses)
      say(
        file,
        spec,
        `${base}${from} and ${base}${to} import each other both ways (one layer must sit below the other)`
      )
  }
}

function coreLayerViolations(imports, say) {
  for (const [file, spec, target] of imports) {
    const from = folderUnder(CORE, file)
    if (!from) continue
    const to = folderUnder(CORE, target)
    if (to && CORE_BELOW[from]?.includes(to))
      say(file, spec, `src/main/core/${from} sits below src/main/core/${to} and must not import it`)
    if ([...COMPOSITION_ROOT].some((root) => withoutExtension(root) === withoutExtension(target))) {
      say(file, spec, 'only the composition root (create-core.ts, the CLI, the hosts) builds the services')
    }
  }
}

function crossFeatureViolations(imports, say, known) {
  const seen = new Set()
  for (const [file, spec, target] of imports) {
    const from = folderUnder(FEATURES, file)
    const to = folderUnder(FEATURES, target)
    if (!from || !to || from === to) continue
    const entry = `${file.slice(FEATURES.length)} -> ${withoutExtension(target).slice(FEATURES.length)}`
    if (known.includes(entry)) seen.add(entry)
    else
      say(
        file,
        spec,
        `a renderer feature imports another feature's internals (move what both need to src/renderer/src/common)`
      )
  }
  return known.filter((entry) => !seen.has(entry))
}

function sharedRendererViolations(imports, say) {
  for (const [file, spec, target] of imports) {
    if (RENDERER_SHARED.some((base) => file.startsWith(base)) && target.startsWith(FEATURES))
      say(file, spec, 'src/renderer/src/common and components sit below the features and must not import one')
  }
  twoWayFolderImports(imports, RENDERER_SHARED[0], say)
}

/**
 * files: { 'src/…/x.ts': source }. Returns human-readable violations. `knownCrossFeature` is the
 * allow-list of renderer cross-feature imports (the tree's own by default; tests pass their own).
 */
export function findLayeringViolations(
  files,
  { knownCrossFeature = KNOWN_CROSS_FEATURE_IMPORTS, checkStale = false } = {}
) {
  const violations = []
  const imports = relativeImports(files)
  const say = (file, spec, rule) => violations.push(`${file}: imports '${spec}' — ${rule}`)
  twoWayFolderImports(imports, CORE, say)
  coreLayerViolations(imports, say)
  const stale = crossFeatureViolations(imports, say, knownCrossFeature)
  sharedRendererViolations(imports, say)
  if (checkStale)
    for (const entry of stale)
      violations.push(`KNOWN_CROSS_FEATURE_IMPORTS lists '${entry}', which the code no longer has: remove it`)
  violations.push(...firstChunkViolations(files))
  for (const [file, source] of Object.entries(files)) {
    if (file.startsWith('src/shared/')) {
      for (const name of hostGlobalsIn(source)) {
        violations.push(
          `${file}: uses the global '${name}' — src/shared runs in Node and the browser alike (no host globals)`
        )
      }
    }
    for (const spec of importsOf(source)) {
      const target = spec.startsWith('.') ? relative('.', join(dirname(file), spec)).replaceAll('\\', '/') : null
      const say = (rule) => violations.push(`${file}: imports '${spec}' — ${rule}`)
      if (spec === 'electron' && !ELECTRON_ALLOWED.some((allowed) => allowed.test(file))) {
        say('only src/main/electron, src/main/index.ts and src/preload may import electron')
      }
      if (file.startsWith('src/shared/')) {
        if (isNodeBuiltin(spec)) say('src/shared must stay pure (no Node built-ins)')
        if (target && !target.startsWith('src/shared')) say('src/shared may import only src/shared')
      }
      const adapters = [
        ['src/main/electron/', 'src/main/web'],
        ['src/main/web/', 'src/main/electron']
      ]
      for (const [from, to] of adapters) {
        if (file.startsWith(from) && target?.startsWith(to))
          say('the Electron adapter and the web host share only src/shared and the core')
      }
      if (file.startsWith('src/main/core/') && target?.startsWith('src/main/electron')) {
        say('the core must not depend on the Electron adapter')
      }
      if (file.startsWith('src/renderer/')) {
        if (isNodeBuiltin(spec)) say('the renderer runs in a browser (no Node built-ins)')
        if (target && !(target.startsWith('src/renderer') || target.startsWith('src/shared'))) {
          say('the renderer talks to the core only through the contract (src/shared)')
        }
      }
    }
  }
  return violations
}

export function readSourceTree(root) {
  const files = {}
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name)) {
        files[relative(root, full).replaceAll('\\', '/')] = readFileSync(full, 'utf8')
      }
    }
  }
  walk(join(root, 'src'))
  return files
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const violations = findLayeringViolations(readSourceTree(process.cwd()), { checkStale: true })
  for (const violation of violations) console.error(violation)
  console.log(violations.length === 0 ? 'layering: ok' : `layering: ${violations.length} violation(s)`)
  process.exit(violations.length === 0 ? 0 : 1)
}
