import { defineConfig } from 'vitest/config'

// Benchmarks are plain scripts run through vitest (for TypeScript), each printing its figures.
// They assert nothing about time; they run only on `npm run bench`, never in `npm test`.
export default defineConfig({
  test: {
    include: ['bench/**/*.bench.ts'],
    environment: 'node',
    testTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false
  }
})
