import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['test/support/report-shared.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks'
  }
})
