import { leadingWhitespace } from './text'

/**
 * Re-indents replacement lines after a SEARCH block matched text at another indentation.
 *
 * Tabs against spaces first: a block written with the other kind of indentation than the file's
 * (spaces for a tab-indented file, or tabs for a space-indented one) is converted level by level,
 * alignment spaces after the levels kept. Then three models, tried in order:
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
  file: IndentStyle
): { lines: string[]; changed: boolean } {
  const pairs = indentPairs(search, matched)
  if (pairs.length === 0) return { lines: [...replace], changed: false }
  const crossed = crossKind(pairs, search, matched, replace, file)
  if (crossed) return { lines: crossed, changed: true }
  const fileUnit = file.unit
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

function mapByUnit(
  pairs: Pair[],
  search: readonly string[],
  replace: readonly string[],
  fileUnit: number
): string[] | null {
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
  // Steps of 1–8 columns (whole files are measured: no string is made per line).
  const counts = new Int32Array(9)
  let prev = -1
  for (const line of lines) {
    const width = spaceIndent(line)
    if (width !== BLANK) prev = countStep(counts, prev, width)
  }
  return mostCommonStep(counts)
}

/** Counts the step from the previous indented line; the width to compare the next line with. */
function countStep(counts: Int32Array, prev: number, width: number): number {
  if (width === TABBED) return -1
  if (prev >= 0 && width > prev && width - prev <= 8) counts[width - prev]++
  return width
}

/** The step counted most often, the smaller on a tie; 0 when none was. */
function mostCommonStep(counts: Int32Array): number {
  let best = 0
  for (let step = 1; step <= 8; step++) if (counts[step] > counts[best]) best = step
  return best
}

const BLANK = -2
const TABBED = -1

/** Width of a line's leading spaces; TABBED when a tab is among its leading blanks, BLANK for a blank line. */
function spaceIndent(line: string): number {
  let i = 0
  let tabbed = false
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (c === 0x09) tabbed = true
    else if (c !== 0x20) break
  }
  if (i === line.length) return BLANK
  const c = line.charCodeAt(i)
  // Other whitespace (CR, NBSP, …) may still make the line blank, as `trim` sees it.
  if ((c <= 0x20 || c >= 0x7f) && line.trim() === '') return BLANK
  return tabbed ? TABBED : i
}

/** How a file indents: with tabs, or with `unit` spaces per level (0 when unknown). */
export interface IndentStyle {
  tabs: boolean
  unit: number
}

type IndentKind = 'tab' | 'space'

/** The file's style: tabs when more lines start with a tab than with two spaces. */
export function detectIndentStyle(lines: readonly string[]): IndentStyle {
  let tabLines = 0
  let spaceLines = 0
  // One pass for both measures (whole files are measured; no string is made per line).
  const counts = new Int32Array(9)
  let prev = -1
  for (const line of lines) {
    const width = spaceIndent(line)
    if (width === BLANK) continue
    const first = line.charCodeAt(0)
    if (first === 0x09) tabLines++
    else if (first === 0x20 && line.charCodeAt(1) === 0x20) spaceLines++
    prev = countStep(counts, prev, width)
  }
  return { tabs: tabLines > spaceLines, unit: mostCommonStep(counts) }
}

/** The kind of indentation the lines use: undefined when none is indented or they mix kinds. */
function kindOf(lines: readonly string[]): IndentKind | 'mixed' | undefined {
  let kind: IndentKind | 'mixed' | undefined
  for (const line of lines) {
    if (line.trim() === '') continue
    const ws = leadingWhitespace(line)
    if (ws === '') continue
    const own: IndentKind = ws[0] === '\t' ? 'tab' : ws.includes('\t') ? 'tab' : 'space'
    if (own === 'space' && ws.length < 2 && !kind) continue // one space is alignment, not a level
    kind = kind && kind !== own ? 'mixed' : own
  }
  return kind
}

/** Most common positive step of at least two spaces between consecutive indented lines. */
function spaceStep(lines: readonly string[]): number {
  const counts = new Map<number, number>()
  let prev = -1
  for (const line of lines) {
    if (line.trim() === '') continue
    const width = leadingWhitespace(line).length
    if (prev >= 0 && width - prev >= 2) counts.set(width - prev, (counts.get(width - prev) ?? 0) + 1)
    prev = width
  }
  let best = 0
  for (const [step, count] of counts)
    if (count > (counts.get(best) ?? 0) || (count === counts.get(best) && step < best)) best = step
  return best
}

/** Level and alignment remainder of an indentation, read in a kind and unit. */
function levelOf(ws: string, kind: IndentKind, unit: number): { level: number; rem: number } {
  if (kind === 'tab') {
    let tabs = 0
    while (tabs < ws.length && ws[tabs] === '\t') tabs++
    return { level: tabs, rem: ws.length - tabs }
  }
  const cols = [...ws].reduce((sum, c) => sum + (c === '\t' ? unit : 1), 0)
  return { level: Math.floor(cols / unit), rem: cols % unit }
}

/**
 * The kind the block indents with: its own when it uses one, else the kind of the lines it adds
 * with an indentation no search line has (the search copied from the file, the rest typed anew).
 */
function blockKind(search: readonly string[], replace: readonly string[]): IndentKind | 'mixed' | undefined {
  const all = kindOf([...search, ...replace])
  if (all !== 'mixed') return all
  const searchIndents = new Set(search.map(leadingWhitespace))
  return kindOf(replace.filter((line) => !searchIndents.has(leadingWhitespace(line))))
}

/** Whether the block indents with the other kind than the file region it lands in. */
export function crossesIndentKind(
  search: readonly string[],
  matched: readonly string[],
  replace: readonly string[],
  file: IndentStyle | (() => IndentStyle)
): boolean {
  const source = blockKind(search, replace)
  if (source !== 'tab' && source !== 'space') return false
  const target = kindOf(matched)
  // The whole file's style is measured only when the matched lines do not tell (a caller may defer it).
  const style = (): IndentStyle => (typeof file === 'function' ? file() : file)
  const targetKind =
    target === 'tab' || target === 'space' ? target : style().tabs ? 'tab' : style().unit > 0 ? 'space' : undefined
  return targetKind !== undefined && source !== targetKind
}

/**
 * Converts a block indented with the other kind than the file's: each replacement line keeps its
 * level relative to the search (and its alignment spaces); a line whose indentation a search line
 * had takes that line's indentation from the file as it is.
 */
function crossKind(
  pairs: Pair[],
  search: readonly string[],
  matched: readonly string[],
  replace: readonly string[],
  file: IndentStyle
): string[] | null {
  if (!crossesIndentKind(search, matched, replace, file)) return null
  const source = blockKind(search, replace) as IndentKind
  const target: IndentKind = source === 'tab' ? 'space' : 'tab'
  const block = [...search, ...replace]
  // Spaces per level in the block: from the pairs (4 spaces matched one tab), else its own steps.
  const ratios = pairs
    .map(([, f]) => levelOf(f, 'tab', 4).level)
    .map((level, i) => (level > 0 ? pairs[i][0].length / level : 0))
    .filter((r) => r >= 2 && Number.isInteger(r))
  const sourceUnit =
    source === 'space'
      ? ratios.length > 0 && ratios.every((r) => r === ratios[0])
        ? ratios[0]
        : spaceStep(block) || blockUnit(block) || 4
      : 4
  const targetUnit = target === 'space' ? detectIndentUnit(matched) || file.unit || 4 : 4
  const [firstSearch, firstFile] = pairs[0]
  const offset = levelOf(firstFile, target, targetUnit).level - levelOf(firstSearch, source, sourceUnit).level
  const known = new Map<string, string | null>()
  for (const [s, f] of pairs) known.set(s, known.has(s) && known.get(s) !== f ? null : f)
  return replace.map((line) => {
    if (line.trim() === '') return line.length === 0 ? line : ''
    const ws = leadingWhitespace(line)
    const same = known.get(ws)
    if (same !== undefined && same !== null) return same + line.slice(ws.length)
    const { level, rem } = levelOf(ws, source, sourceUnit)
    const at = Math.max(0, level + offset)
    return (
      (target === 'tab' ? '\t'.repeat(at) + ' '.repeat(rem) : ' '.repeat(at * targetUnit + rem)) + line.slice(ws.length)
    )
  })
}
