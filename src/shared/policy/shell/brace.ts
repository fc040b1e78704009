/**
 * Bash brace expansion of one word's source text: `{rm,-rf,x}` is three words, `r{m,}` two,
 * `{1..3}` three. Quoted and escaped braces and `${…}` are left alone. Returns undefined when the
 * word cannot be expanded statically (too many results): the caller asks.
 */
const MAX_WORDS = 256

interface Group {
  open: number
  close: number
  /** Start of each alternative, after the `{` or a top-level `,`. */
  commas: number[]
}

/** Offsets of unquoted, unescaped characters of the raw word. */
function unquotedMask(raw: string): boolean[] {
  const mask = new Array<boolean>(raw.length).fill(false)
  let quote: string | undefined
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (quote) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"') i++
      continue
    }
    if (c === '\\') i++
    else if (c === "'" || c === '"') quote = c
    else if (c === '$' && raw[i + 1] === "'") quote = "'"
    else mask[i] = true
  }
  return mask
}

function firstGroup(raw: string, mask: boolean[]): Group | undefined {
  for (let open = 0; open < raw.length; open++) {
    if (!mask[open] || raw[open] !== '{' || raw[open - 1] === '$') continue
    let depth = 0
    const commas: number[] = []
    for (let i = open; i < raw.length; i++) {
      if (!mask[i]) continue
      if (raw[i] === '{' && raw[i - 1] !== '$') depth++
      else if (raw[i] === '}') {
        depth--
        if (depth === 0) {
          if (
            commas.length > 0 ||
            /^\{(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(\.\.-?\d+)?\}$/.test(raw.slice(open, i + 1))
          )
            return { open, close: i, commas }
          break
        }
      } else if (raw[i] === ',' && depth === 1) commas.push(i)
    }
  }
  return undefined
}

function sequence(body: string): string[] | undefined {
  const [from, to, stepText] = body.split('..')
  const step = Math.abs(Number(stepText ?? 1)) || 1
  const numeric = /^-?\d+$/.test(from) && /^-?\d+$/.test(to)
  const a = numeric ? Number(from) : from.charCodeAt(0)
  const b = numeric ? Number(to) : to.charCodeAt(0)
  if (Math.abs(b - a) / step > MAX_WORDS) return undefined
  const out: string[] = []
  for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? step : -step)
    out.push(numeric ? String(n) : String.fromCharCode(n))
  return out
}

export function expandBraces(raw: string, budget = { left: MAX_WORDS }): string[] | undefined {
  const group = firstGroup(raw, unquotedMask(raw))
  if (!group) return [raw]
  const prefix = raw.slice(0, group.open)
  const suffix = raw.slice(group.close + 1)
  let alternatives: string[] | undefined
  if (group.commas.length === 0) alternatives = sequence(raw.slice(group.open + 1, group.close))
  else {
    const starts = [group.open, ...group.commas]
    alternatives = starts.map((start, i) => raw.slice(start + 1, i + 1 < starts.length ? starts[i + 1] : group.close))
  }
  if (!alternatives) return undefined
  const out: string[] = []
  for (const alternative of alternatives) {
    const expanded = expandBraces(prefix + alternative + suffix, budget)
    if (!expanded) return undefined
    budget.left -= expanded.length
    if (budget.left < 0) return undefined
    out.push(...expanded)
  }
  return out
}

/** Whether the raw word holds an unquoted brace expansion. */
export const hasBraceExpansion = (raw: string): boolean =>
  raw.includes('{') && firstGroup(raw, unquotedMask(raw)) !== undefined
