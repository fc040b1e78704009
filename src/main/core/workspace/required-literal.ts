export interface RequiredLiteral {
  text: string
  /** The pattern is this text and nothing else: a line matches exactly when it holds it. */
  whole: boolean
}

/**
 * The longest run of characters every match of a regular expression must contain, read from its
 * source conservatively: a search looks for these bytes in a file before decoding it, and only in
 * the lines that hold them. Null when unsure (case-insensitive, alternation at the top level, an
 * escape it does not read) or when no run of two characters or more is certain.
 */
export function requiredLiteral(source: string, flags: string): RequiredLiteral | null {
  if (flags.includes('i')) return null
  let best = ''
  let run = ''
  // Whether every token so far was a plain character.
  let whole = true
  // Whether the last token added a character to `run` (a quantifier after it makes it optional).
  let lastWasChar = false
  const close = (): void => {
    whole = false
    if (run.length > best.length) best = run
    run = ''
    lastWasChar = false
  }
  const dropLast = (): void => {
    // Without the u flag a quantifier takes one code unit: drop a whole surrogate pair's remains too.
    if (lastWasChar) run = run.slice(0, -1).replace(/[\uD800-\uDBFF]$/, '')
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') {
      const next = source[++i]
      if (next === undefined || /[0-9xuckpP]/.test(next)) return null
      if (/[\\^$.|?*+()[\]{}/-]/.test(next)) {
        run += next
        lastWasChar = true
      } else close() // \d \w \s \b \n … : a class or an assertion
    } else if (c === '[') {
      close()
      i = skipClass(source, i)
    } else if (c === '(') {
      close()
      i = skipGroup(source, i)
      if (i < 0) return null
    } else if (c === '|') {
      return null
    } else if (c === '?' || c === '*') {
      dropLast()
      close()
    } else if (c === '{') {
      const quantifier = /^\{\d+(,\d*)?\}/.exec(source.slice(i))
      dropLast()
      close()
      if (quantifier) i += quantifier[0].length - 1
    } else if ('+.^$)]}'.includes(c) || c < ' ' || c === '\uFFFD') {
      close()
    } else {
      run += c
      lastWasChar = true
    }
  }
  const plain = whole
  close()
  return best.length >= 2 ? { text: best, whole: plain } : null
}

/** Index of the `]` closing the class opened at `open` (JS: the first unescaped one). */
function skipClass(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i++
    else if (source[i] === ']') return i
  }
  return source.length
}

/** Index of the `)` closing the group opened at `open`, or −1. */
function skipGroup(source: string, open: number): number {
  let depth = 0
  for (let i = open; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (c === '[') i = skipClass(source, i)
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i
  }
  return -1
}
