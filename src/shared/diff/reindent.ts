import { leadingWhitespace } from './text'

/**
 * Re-indents replacement lines after a SEARCH block matched text at another indentation.
 *
 * Three models, tried in order:
 *  1. identity: the model wrote the file's exact indentation → keep its replacement as written;
 *  2. unit mapping: the block uses another indent unit (4 spaces where the file steps by 2) →
 *     convert levels, so nested lines land where the file's own style puts them;
 *  3. relative: the matched first line's indentation plus each line's offset from the search's first
 *     line (what editors do when pasting; also what Roo does).
 */
export function reindentReplacement(
  search: readonly string[],
  matched: readonly string[],
  replace: readonly string[],
  fileUnit: number
): { lines: string[]; changed: boolean } {
  const pairs = indentPairs(search, matched)
  if (pairs.length === 0) return { lines: [...replace], changed: false }
  const allEqual = pairs.every(([s, f]) => s === f)
  if (allEqual && pairs.some(([s]) => s.length > 0)) return { lines: [...replace], changed: false }
  const mapped = mapByUnit(pairs, search, replace, fileUnit)
  if (mapped) return { lines: mapped, changed: true }
  if (allEqual) return { lines: [...replace], changed: false }
  return { lines: relative(pairs[0], replace), changed: true }
}

type Pair = [searchIndent: string, fileIndent: string]

function indentPairs(search: readonly string[], matched: readonly string[]): Pair[] {
  const pairs: Pair[] = []
  for (let i = 0; i < search.length && i < matched.length; i++) {
    if (search[i].trim() === '' || matched[i].trim() === '') continue
    pairs.push([leadingWhitespace(search[i]), leadingWhitespace(matched[i])])
  }
  return pairs
}

const spacesOnly = (s: string): boolean => !s.includes('\t')

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b]
  return a
}

/** The block's indent unit: gcd of its non-zero space indentation widths. */
function blockUnit(lines: readonly string[]): number {
  let unit = 0
  for (const line of lines) {
    if (line.trim() === '') continue
    const ws = leadingWhitespace(line)
    if (!spacesOnly(ws)) return 0
    if (ws.length > 0) unit = gcd(unit, ws.length)
  }
  return unit
}

function mapByUnit(pairs: Pair[], search: readonly string[], replace: readonly string[], fileUnit: number): string[] | null {
  if (fileUnit <= 0) return null
  if (!pairs.every(([s, f]) => spacesOnly(s) && spacesOnly(f))) return null
  const unit = blockUnit([...search, ...replace])
  if (unit <= 0 || unit === fileUnit) return null
  let offset: number | null = null
  for (const [s, f] of pairs) {
    if (s.length % unit !== 0 || f.length % fileUnit !== 0) return null
    const o = f.length / fileUnit - s.length / unit
    if (offset === null) offset = o
    else if (o !== offset) return null
  }
  const levelOffset = offset ?? 0
  return replace.map((line) => {
    if (line.trim() === '') return line.length === 0 ? line : ''
    const ws = leadingWhitespace(line)
    const level = Math.max(0, Math.round(ws.length / unit) + levelOffset)
    return ' '.repeat(level * fileUnit) + line.slice(ws.length)
  })
}

function relative([searchBase, fileBase]: Pair, replace: readonly string[]): string[] {
  return replace.map((line) => {
    const ws = leadingWhitespace(line)
    const rest = line.slice(ws.length)
    const delta = ws.length - searchBase.length
    if (delta < 0) return fileBase.slice(0, Math.max(0, fileBase.length + delta)) + rest
    return fileBase + ws.slice(searchBase.length) + rest
  })
}

/** The file's indent unit in spaces: the most common positive step between consecutive lines. */
export function detectIndentUnit(lines: readonly string[]): number {
  const counts = new Map<number, number>()
  let prev = -1
  for (const line of lines) {
    if (line.trim() === '') continue
    const ws = leadingWhitespace(line)
    if (!spacesOnly(ws)) {
      prev = -1
      continue
    }
    if (prev >= 0 && ws.length > prev && ws.length - prev <= 8) {
      const step = ws.length - prev
      counts.set(step, (counts.get(step) ?? 0) + 1)
    }
    prev = ws.length
  }
  let best = 0
  let bestCount = 0
  for (const [step, count] of counts) {
    if (count > bestCount || (count === bestCount && step < best)) [best, bestCount] = [step, count]
  }
  return best
}
