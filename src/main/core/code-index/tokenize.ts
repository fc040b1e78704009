const WORD = /[A-Za-z0-9_$]+/g
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g
const MAX_TOKEN = 48
/** A word that is one part already (`parse`, `Parse`): most words of code; no split needed. */
const ONE_PART = /^[A-Z]?[a-z]+$/

/**
 * Terms of code or a query: each identifier lowercased, plus its camelCase / snake_case parts, so
 * `parseSourceFile` matches "parse source file" and `MAX_RESULTS` matches "max results".
 */
export function tokenize(text: string): string[] {
  const terms: string[] = []
  for (const match of text.matchAll(WORD)) {
    const word = match[0]
    if (word.length > MAX_TOKEN) continue
    const lower = word.toLowerCase()
    if (lower.length > 1) terms.push(lower)
    if (ONE_PART.test(word)) continue
    const parts = word.match(PART)
    if (parts && parts.length > 1) for (const part of parts) if (part.length > 1) terms.push(part.toLowerCase())
  }
  return terms
}
