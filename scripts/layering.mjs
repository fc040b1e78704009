// Checks the layer rules of architecture.md on the source tree: what each layer may import.
// Used by test/architecture/layering.test.ts (in CI) and runnable alone: `node scripts/layering.mjs`.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'

const NODE_BUILTINS = new Set([
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises',
  'http', 'http2', 'https', 'module', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream',
  'string_decoder', 'timers', 'tls', 'tty', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib'
])
const ELECTRON_ALLOWED = [/^src\/main\/electron\//, /^src\/main\/index\.ts$/, /^src\/preload\//]

const IMPORT_PATTERN = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g

export function importsOf(source) {
  const found = []
  for (const match of source.matchAll(IMPORT_PATTERN)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4])
  return found
}

const isNodeBuiltin = (spec) => spec.startsWith('node:') || NODE_BUILTINS.has(spec)

// Globals only a host provides (Node or the browser); src/shared runs in both, so it uses none.
const HOST_GLOBALS = [
  'process', 'Buffer', 'require', '__dirname', '__filename', 'setImmediate',
  'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'HTMLElement',
  'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'
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

/** files: { 'src/…/x.ts': source }. Returns human-readable violations. */
export function findLayeringViolations(files) {
  const violations = []
  for (const [file, source] of Object.entries(files)) {
    if (file.startsWith('src/shared/')) {
      for (const name of hostGlobalsIn(source)) {
        violations.push(`${file}: uses the global '${name}' — src/shared runs in Node and the browser alike (no host globals)`)
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
      const adapters = [['src/main/electron/', 'src/main/web'], ['src/main/web/', 'src/main/electron']]
      for (const [from, to] of adapters) {
        if (file.startsWith(from) && target?.startsWith(to)) say('the Electron adapter and the web host share only src/shared and the core')
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
  const violations = findLayeringViolations(readSourceTree(process.cwd()))
  for (const violation of violations) console.error(violation)
  console.log(violations.length === 0 ? 'layering: ok' : `layering: ${violations.length} violation(s)`)
  process.exit(violations.length === 0 ? 0 : 1)
}
