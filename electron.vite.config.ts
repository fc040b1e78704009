import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { build, type Plugin, type Rolldown } from 'vite'
import react from '@vitejs/plugin-react'
import { PREACT_COMPAT_ALIASES } from './preact-compat.config'

/**
 * The page's early connection (`src/renderer/src/early.ts`) is built apart, as a small classic
 * script the page runs before the app's modules: Vite folds every module script of a page into one
 * entry, which would run it only once the whole app is fetched.
 */
function earlyScript(entry: string): Plugin {
  let fileName = ''
  return {
    name: 'modus-early-script',
    apply: 'build',
    async buildStart() {
      const [built] = (await build({
        configFile: false,
        logLevel: 'warn',
        publicDir: false,
        build: { write: false, minify: true, lib: { entry, formats: ['iife'], name: 'modusEarly' } }
      })) as Rolldown.RolldownOutput[]
      const code = built.output[0].code
      fileName = `assets/early-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`
      this.emitFile({ type: 'asset', fileName, source: code })
    },
    // Async: it blocks neither the parser nor waits for the stylesheet, and runs as soon as it is
    // here, which is long before the app's modules (if not, the app has connected and it stands down).
    // First in the head and asked for at high priority: an async script is otherwise fetched last, at
    // low priority, and came in with or after the app's chunk.
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace('</title>', `</title>\n    <script async fetchpriority="high" src="./${fileName}"></script>`)
    }
  }
}

/**
 * Everything the app's entry reaches by static imports goes in one chunk: left to itself the bundler
 * splits what the entry shares with lazy views into small chunks, each one more request before the
 * first screen (a browser opens at most six at a time to one host).
 */
function firstScreenChunk(entry: string): Rolldown.CodeSplittingNameFunction {
  let reached: Set<string> | null = null
  return (id, context) => {
    reached ??= staticallyReached(entry, context)
    return reached.has(id) ? 'index' : null
  }
}

function staticallyReached(entry: string, context: Rolldown.ChunkingContext): Set<string> {
  const reached = new Set<string>()
  const queue = [entry]
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (reached.has(id)) continue
    reached.add(id)
    queue.push(...(context.getModuleInfo(id)?.importedIds ?? []))
  }
  return reached
}

// Three Node entries share one main build: the Electron app, the web host and the headless CLI.
// Only `index` may import electron; `serve` and `cli` run on plain Node 20.
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          serve: resolve('src/main/web/serve.ts'),
          cli: resolve('src/cli/main.ts')
        }
      }
    }
  },
  preload: {
    build: { rollupOptions: { input: { index: resolve('src/preload/index.ts') } } }
  },
  renderer: {
    root: resolve('src/renderer'),
    resolve: { alias: PREACT_COMPAT_ALIASES },
    build: {
      minify: true,
      rollupOptions: {
        input: { index: resolve('src/renderer/index.html') },
        output: { codeSplitting: { groups: [{ name: firstScreenChunk(resolve('src/renderer/src/main.tsx')) }] } }
      }
    },
    plugins: [react(), earlyScript(resolve('src/renderer/src/early.ts'))]
  }
})
