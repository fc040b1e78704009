// What the renderer's first chunk is built from: every module main.tsx reaches through static value
// imports (an `import type`, a `type`-only import list and a dynamic `import()` load nothing at start).
// The bundler puts each of them in the entry chunk, so a package they import is parsed and run before
// the first paint. Checked by scripts/layering.mjs (issue 28 item 21: zod and re2js came back that way);
// runnable alone to see each package and the import chain that brings it:
// `node scripts/first-chunk.mjs`.
import { resolve } from 'node:path'
import { readSourceTree } from './layering.mjs'

export const FIRST_CHUNK_ENTRY = 'src/renderer/src/main.tsx'

/**
 * The packages the first screen may load (fail closed: anything else, such as zod, re2js, Monaco or
 * xterm, belongs in a chunk a view loads with `import()` or `React.lazy`). Add one here only if it is
 * small and the first screen cannot work without it. `react` and `react-dom` are named as the code
 * imports them; the build puts Preact's compat layer in their place (preact-compat.config.ts).
 */
export const FIRST_CHUNK_PACKAGES = ['react', 'react-dom', 'react-dom/client', 'zustand', 'diff']

/**
 * The views the first screen does not show (everything but the chat and the folder picker): views.tsx
 * and App.tsx load each with `import()`, so its code is fetched on first show or when the browser is
 * idle, never before the first paint. A static import of one of them from the first chunk fails.
 */
export const LAZY_VIEW_MODULES = [
  'src/renderer/src/composed/QueueWithBranches.tsx',
  'src/renderer/src/features/approvals/ApprovalQueueView.tsx',
  'src/renderer/src/features/review/ChangesView.tsx',
  'src/renderer/src/common/review/ChangesetReview.tsx',
  'src/renderer/src/features/terminal/TerminalPanel.tsx',
  'src/renderer/src/features/modes/ModesView.tsx',
  'src/renderer/src/features/mcp/McpView.tsx',
  'src/renderer/src/features/history/HistoryView.tsx',
  'src/renderer/src/composed/SettingsWithFeatures.tsx',
  'src/renderer/src/SettingsView.tsx',
  'src/renderer/src/features/settings/ProviderSettings.tsx',
  'src/renderer/src/features/hooks/HooksSettings.tsx',
  'src/renderer/src/composed/WorktreesWithReview.tsx',
  'src/renderer/src/features/worktrees/WorktreesView.tsx'
]

const STATEMENT =
  /^[ \t]*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^[ \t]*import\s+['"]([^'"]+)['"]/gm

/** An import list of types only (`{ type A, type B }`) is erased by the compiler, like `import type`. */
function onlyTypes(clause) {
  const braces = clause.match(/\{([\s\S]*)\}/)
  if (!braces || clause.replace(/\{[\s\S]*\}/, '').replace(/[\s,]/g, '') !== '') return false
  const names = braces[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  return names.length > 0 && names.every((name) => name.startsWith('type '))
}

/**
 * The specifiers a module loads when it runs. An `import { X }` whose X is used only as a type also
 * counts (the compiler would erase it; this check asks for `import type`, so it reads the same here).
 */
export function valueImportsOf(source) {
  const found = []
  for (const match of source.matchAll(STATEMENT)) {
    if (match[4]) found.push(match[4])
    else if (!match[1] && !onlyTypes(match[2])) found.push(match[3])
  }
  return found
}

const CANDIDATES = ['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx']

function resolveRelative(files, from, spec) {
  const base = resolve('/', from, '..', spec).slice(1)
  if (base in files) return base
  return CANDIDATES.map((ext) => base + ext).find((path) => path in files) ?? null
}

const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/')

/** The import chain from main.tsx to a module of the first chunk. */
function chainTo(importer, file) {
  const path = []
  for (let at = file; at; at = importer.get(at)) path.unshift(at)
  return path
}

/**
 * files: { 'src/…/x.ts': source }. Returns the modules of the first chunk (each with the module that
 * first imported it) and the packages they import, as { spec, chain }.
 */
export function firstChunk(files) {
  const importer = new Map([[FIRST_CHUNK_ENTRY, null]])
  const packages = []
  if (!(FIRST_CHUNK_ENTRY in files)) return { importer, packages }
  const queue = [FIRST_CHUNK_ENTRY]
  const chain = (file) => chainTo(importer, file)
  while (queue.length > 0) {
    const file = queue.shift()
    for (const spec of valueImportsOf(files[file])) {
      if (!spec.startsWith('.')) {
        packages.push({ spec, chain: chain(file) })
        continue
      }
      const target = resolveRelative(files, file, spec)
      if (target && !importer.has(target)) {
        importer.set(target, file)
        queue.push(target)
      }
    }
  }
  return { importer, packages }
}

/**
 * One line per import of a package the first chunk may not carry, and per lazy view it holds, with
 * the chain that reaches it.
 */
export function firstChunkViolations(files, allowed = FIRST_CHUNK_PACKAGES, lazyViews = LAZY_VIEW_MODULES) {
  const { importer, packages } = firstChunk(files)
  const heavyPackages = packages
    .filter(({ spec }) => !allowed.includes(spec) && !allowed.includes(packageOf(spec)))
    .map(
      ({ spec, chain }) =>
        `${chain.at(-1)}: imports '${spec}', which puts it in the renderer's first chunk (${chain.join(' → ')}) — ` +
        `use \`import type\` for types, a module without it for constants, or load the view lazily`
    )
  const eagerViews = lazyViews
    .filter((file) => importer.has(file))
    .map((file) => {
      const chain = chainTo(importer, file)
      return (
        `${chain.at(-2)}: imports the view ${file} statically, which puts it in the renderer's first chunk ` +
        `(${chain.join(' → ')}) — load it with \`lazyView(() => import(…))\` (components/lazy-view.tsx)`
      )
    })
  return [...heavyPackages, ...eagerViews]
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const { importer, packages } = firstChunk(readSourceTree(process.cwd()))
  const shortest = new Map()
  for (const use of packages) if (!shortest.has(use.spec)) shortest.set(use.spec, use.chain)
  console.log(`${importer.size} modules in the first chunk; the packages they import (first chain found):`)
  for (const [spec, chain] of shortest) console.log(`  ${spec}\n    ${chain.join(' → ')}`)
  const violations = firstChunkViolations(readSourceTree(process.cwd()))
  for (const violation of violations) console.error(violation)
  process.exit(violations.length === 0 ? 0 : 1)
}
