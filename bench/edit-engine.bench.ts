import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { applyPatch, applySearchReplace } from '../src/shared/diff'
import { sharedDir, sharedPresent } from '../test/support/shared-dir'

// apply_diff / apply_patch engine over ../shared/workloads (fixed seed), beside Roo's recorded
// figures (perf-anchors.md §1–2; Roo's engine cannot run here). Times in ms, never asserted.

const ROO = {
  '1a': 'Roo 97.3 ms warm / 141 cold; 50/50 applied, 30/50 exact',
  '1b': 'Roo fails (12.5 ms)',
  '1b-nohint': 'Roo 1,221 ms, exact',
  '1c': 'Roo 5.56 ms (fails, correct)',
  '1c-nohint': 'Roo 518 ms (fails, correct)',
  '1c-50k': 'Roo 15.1 ms (fails, correct)',
  '1c-nohint-50k': 'Roo 2,365 ms (fails, correct)',
  '2': 'Roo 1.27 ms warm / 6.5 cold, exact',
  '2b': 'Roo 4.95 ms, content-equal only (150 lines differ)',
  '2c': 'Roo 2.38 ms (fails, correct)'
} as const

let dir = ''
const read = (f: string): string => readFileSync(join(dir, f), 'utf8')
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fmt = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(1))

function time<T>(fn: () => T, warmRuns: number): { result: T; cold: number; warm: number; min: number; max: number } {
  let t = performance.now()
  const result = fn()
  const cold = performance.now() - t
  const samples: number[] = []
  for (let i = 0; i < warmRuns; i++) {
    t = performance.now()
    fn()
    samples.push(performance.now() - t)
  }
  return { result, cold, warm: median(samples), min: Math.min(...samples), max: Math.max(...samples) }
}

function correctness(actual: string | null, expected: string | null): string {
  if (expected === null) return actual === null ? 'fails (correct)' : 'APPLIED (wrong)'
  if (actual === null) return 'FAILED'
  if (actual === expected) return 'exact'
  const trim = (s: string) =>
    s
      .split('\n')
      .map((l) => l.trim())
      .join('\n')
  const differing = actual.split('\n').filter((l, i) => l !== expected.split('\n')[i]).length
  return trim(actual) === trim(expected)
    ? `content-equal (${differing} lines differ)`
    : `WRONG (${differing} lines differ)`
}

const rows: string[] = []

/**
 * Reads the text as a writer would: a string built by concatenation is flattened on first read. The
 * result goes to a module variable so the compiler cannot drop the read.
 */
let sink = 0
function readAsAWriterWould(text: string): void {
  sink += text.indexOf('\u0000')
}
function report(name: keyof typeof ROO, t: ReturnType<typeof time>, verdict: string, extra = ''): void {
  rows.push(
    `| ${name} | ${fmt(t.warm)} (${fmt(t.min)}–${fmt(t.max)}) | ${fmt(t.cold)} | ${verdict}${extra} | ${ROO[name]} |`
  )
}

describe.skipIf(!sharedPresent)('edit engine benchmark', () => {
  afterAll(() => {
    console.log(
      [
        '',
        '| case | Modus warm ms median (min–max) | first call ms | Modus result | Roo (perf-anchors.md) |',
        '|---|---|---|---|---|',
        ...rows
      ].join('\n')
    )
    if (dir) rmSync(dir, { recursive: true, force: true })
    if (sink > 0) console.log('(a result held a NUL character)')
  })

  it('generates the workloads', () => {
    dir = mkdtempSync(join(tmpdir(), 'modus-bench-'))
    execFileSync(process.execPath, [resolve(sharedDir, 'workloads/generate.mjs'), dir], { stdio: 'ignore' })
  })

  it('apply_diff 1a/1b/1c', () => {
    const t10 = read('ts-10k.ts')
    const t50 = read('ts-50k.ts')
    const cases: Array<[keyof typeof ROO, string, string, string | null, number]> = [
      ['1a', t10, 'sr-1a.diff', 'expected-1a.ts', 40],
      ['1b', t50, 'sr-1b.diff', 'expected-1b.ts', 15],
      ['1b-nohint', t50, 'sr-1b-nohint.diff', 'expected-1b.ts', 15],
      ['1c', t10, 'sr-1c.diff', null, 40],
      ['1c-nohint', t10, 'sr-1c-nohint.diff', null, 40],
      ['1c-50k', t50, 'sr-1c-50k.diff', null, 15],
      ['1c-nohint-50k', t50, 'sr-1c-nohint.diff', null, 15]
    ]
    for (const [name, original, diffFile, expectedFile, runs] of cases) {
      const diff = read(diffFile)
      const t = time(() => applySearchReplace(original, diff), runs)
      const ok = t.result.failed === 0 && t.result.applied > 0
      const verdict = correctness(ok ? t.result.content : null, expectedFile ? read(expectedFile) : null)
      const failed = t.result.blocks.find((b) => b.status === 'failed')
      const closest =
        failed && failed.status === 'failed' && failed.closest
          ? `; closest candidate lines ${failed.closest.startLine}-${failed.closest.endLine}, ${Math.round(failed.closest.similarity * 100)}%`
          : ''
      report(name, t, `${t.result.applied}/${t.result.blocks.length} applied, ${verdict}`, closest)
    }
  })

  it('apply_diff 1a per block (each block alone, as in perf-anchors)', () => {
    const original = read('ts-10k.ts')
    const expected = read('expected-1a.ts').split('\n')
    const blocks = JSON.parse(read('blocks-1a.json')) as Array<{
      trueStartLine: number
      searchLines: number
      replaceLines: number
      indentUnit: number
    }>
    const parts = read('sr-1a.diff').split(/(?=<<<<<<< SEARCH)/)
    const lines = original.split('\n')
    const tally = { 2: { exact: 0, other: 0 }, 4: { exact: 0, other: 0 } } as Record<
      number,
      { exact: number; other: number }
    >
    let delta = 0
    blocks.forEach((b, i) => {
      const start = b.trueStartLine - 1
      const intended = [
        ...lines.slice(0, start),
        ...expected.slice(start + delta, start + delta + b.replaceLines),
        ...lines.slice(start + b.searchLines)
      ].join('\n')
      delta += b.replaceLines - b.searchLines
      const r = applySearchReplace(original, parts[i])
      tally[b.indentUnit][r.content === intended && r.failed === 0 ? 'exact' : 'other']++
    })
    rows.push(
      `| 1a per block | – | – | 2-space blocks: ${tally[2].exact} exact, ${tally[2].other} not; 4-space blocks: ${tally[4].exact} exact, ${tally[4].other} not | Roo: 25/25 and 5/25 exact |`
    )
  })

  it('apply_patch 2/2b/2c', () => {
    const t10 = read('ts-10k.ts')
    const expected = read('expected-2.ts')
    const cases: Array<[keyof typeof ROO, string, string | null]> = [
      ['2', 'patch-2.patch', expected],
      ['2b', 'patch-2b-reindented.patch', expected],
      ['2c', 'patch-2c-nomatch.patch', null]
    ]
    for (const [name, file, exp] of cases) {
      const text = read(file)
      let failure = ''
      const run = (read: boolean) => (): string | null => {
        try {
          const [change] = applyPatch(text, () => t10)
          if (change.type !== 'update') return null
          if (read) readAsAWriterWould(change.content)
          return change.content
        } catch (err) {
          failure = /Closest match: lines \S+ \(\d+% similar\)/.exec((err as Error).message)?.[0] ?? ''
          return null
        }
      }
      const t = time(run(true), 40)
      // The result is a rope of slices of the file until it is read: unread, only the engine is timed.
      const engine = time(run(false), 40)
      report(
        name,
        t,
        correctness(t.result, exp),
        `${failure ? `; ${failure.toLowerCase()}` : ''}; engine alone (result not read) ${fmt(engine.warm)} ms`
      )
    }
    // The floor under 2 and 2b: a fresh flat copy of the 391 KB result. Strings that large get pages
    // of their own, and on this VM touching new pages is most of the cost.
    const copy = time(() => readAsAWriterWould(expected.slice(1) + expected[0]), 40)
    rows.push(
      `| result string alone | ${fmt(copy.warm)} (${fmt(copy.min)}–${fmt(copy.max)}) | ${fmt(copy.cold)} | a fresh flat copy of expected-2.ts (391 KB), which 2 and 2b both make | – |`
    )
  })
})
