const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g
const MAX_TOKEN = 48

/** Character classes of a name's characters, by char code (0: not in a name). */
const LOWER = 1
const UPPER = 2
const OTHER = 3 // digits, `_`, `$`
const classes = new Uint8Array(128)
for (let c = 97; c <= 122; c++) classes[c] = LOWER
for (let c = 65; c <= 90; c++) classes[c] = UPPER
for (let c = 48; c <= 57; c++) classes[c] = OTHER
classes[95] = OTHER
classes[36] = OTHER

const classOf = (code: number): number => (code < 128 ? classes[code] : 0)

/**
 * Terms of code or a query: each identifier lowercased, plus its camelCase / snake_case parts, so
 * `parseSourceFile` matches "parse source file" and `MAX_RESULTS` matches "max results". Scanned by
 * character (a regex match per word was the index's largest cost on its own thread): a word that is
 * one part already (`parse`, `Parse`), most words of code, needs no split.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = []
  const length = text.length
  let at = 0
  while (at < length) {
    const first = classOf(text.charCodeAt(at))
    if (first === 0) {
      at++
      continue
    }
    const start = at
    // One part: an optional capital, then lowercase letters only.
    let onePart = first !== OTHER
    while (++at < length) {
      const kind = classOf(text.charCodeAt(at))
      if (kind === 0) break
      if (kind !== LOWER) onePart = false
    }
    const size = at - start
    if (size > MAX_TOKEN) continue
    const word = text.slice(start, at)
    if (size > 1) terms.push(word.toLowerCase())
    // A lone capital is not one part (it has no lowercase letter after it).
    if (onePart && (first === LOWER || size > 1)) continue
    const parts = word.match(PART)
    if (parts && parts.length > 1) for (const part of parts) if (part.length > 1) terms.push(part.toLowerCase())
  }
  return terms
}
