import type { Alias } from 'vite'

/**
 * The renderer is written against React's API and typed by @types/react, but runs on Preact's compat
 * layer: these aliases swap the imports at build time, for the app's build (Electron and web host
 * share it) and for the renderer's unit tests alike. React DOM was 207 of the first chunk's 362 kB
 * raw; with Preact the chunk is 162 kB (116 → 57 kB gzip) and the cold start fell from 4.2× to 3.4×
 * a static page on a first run, 4.7× to 3.9× for a returning user (#28 item 21, bench/README.md).
 * What Preact does differently is handled where it matters (see `focusOnMount`, VirtualList's
 * `measureRef`, ModePicker's layout effect, test/renderer/act.ts).
 */
export const PREACT_COMPAT_ALIASES: Alias[] = [
  { find: /^react(-dom)?$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' }
]

/** Packages that import React themselves: the unit tests must run them through the aliases too. */
export const IMPORTS_REACT = ['zustand', '@monaco-editor/react']
