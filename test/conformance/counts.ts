import { afterAll } from 'vitest'

/** Pass/skip counts per vector file, printed when the suite ends. */
export function createCounter(file: string) {
  const counts = { passed: 0, skipped: 0, total: 0 }
  afterAll(() => {
    console.log(
      `[conformance] ${file}: ${counts.passed} passed, ${counts.skipped} skipped (differs on purpose), ${counts.total - counts.passed - counts.skipped} failed, of ${counts.total}`
    )
  })
  return {
    counts,
    vector() {
      counts.total++
    },
    pass() {
      counts.passed++
    },
    skip() {
      counts.skipped++
    }
  }
}
