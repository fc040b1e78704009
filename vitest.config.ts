import { configDefaults, defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { IMPORTS_REACT, PREACT_COMPAT_ALIASES } from './preact-compat.config'

// Suites of pure code (no processes, servers, mocks or Node state) share one worker process: starting
// a fresh one per file cost more than their tests. Every other file still gets a process of its own.
const SHARED_PROCESS = [
  'test/shared/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/architecture/**/*.test.ts',
  'test/contract/**/*.test.ts'
]

export default defineConfig({
  plugins: [react()],
  resolve: { alias: PREACT_COMPAT_ALIASES },
  test: {
    server: { deps: { inline: IMPORTS_REACT } },
    environment: 'node',
    globalSetup: ['test/support/report-shared.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most suites wait on processes, ptys and loopback servers, not the CPU: two files at a time on
    // two cores took 824 s where vitest's default (cores - 1, so one file at a time) took 1249 s.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'pure', include: SHARED_PROCESS, isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...SHARED_PROCESS]
        }
      }
    ]
  }
})
