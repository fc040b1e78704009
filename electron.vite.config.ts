import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

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
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } }
    },
    plugins: [react()]
  }
})
