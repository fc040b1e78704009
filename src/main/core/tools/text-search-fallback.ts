import type { SearchFileResult } from '../workspace/search'
import type { SkippedFolder } from '../workspace/skipped-folders'
import type { FileToolContext } from '../ports/tool-types'

/** Words that say nothing about code: a query in plain English would match every file with them. */
const STOP_WORDS = new Set(
  'the and for with that this from where what which when how does into are was were has have had not but any all can use used uses using its it is be to of in on by or as an at do get set find code function method class file files show me'.split(
    ' '
  )
)
const MAX_TERMS = 8
/** Matching lines read from the text search before ranking files. */
const LINES_READ = 400
const LINES_PER_FILE = 3

export interface TextSearchHit {
  path: string
  /** Distinct query words the file holds. */
  terms: number
  lines: Array<{ line: number; text: string }>
}

/** A word's stem for a substring match: "computed" finds computeTotal, "parsing" finds parser. */
const stem = (word: string): string => (word.length > 5 ? word.replace(/(ing|ed|es|s)$/, '') : word)

/** The query's words worth looking for, lowercased and stemmed, longest first (identifier parts included). */
export function queryWords(query: string): string[] {
  const words = new Set<string>()
  const add = (word: string) => {
    const lower = word.toLowerCase()
    if (lower.length > 2 && !STOP_WORDS.has(lower)) words.add(stem(lower))
  }
  for (const match of query.matchAll(/[A-Za-z0-9_$]+/g)) {
    add(match[0])
    const parts = match[0].match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []
    if (parts.length > 1) for (const part of parts) add(part)
  }
  return [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
}

const escape = (word: string): string => word.replace(/[$]/g, '\\$')

/**
 * What codebase_search answers while the first index build runs: a real text search (ripgrep when
 * on PATH, the same ignore rules as search_files) for the query's words, files ranked by how many
 * distinct words they hold, then by matches.
 */
export async function searchByWords(
  query: string,
  path: string,
  limit: number,
  ctx: FileToolContext
): Promise<{ words: string[]; hits: TextSearchHit[]; skipped: SkippedFolder[] }> {
  const words = queryWords(query)
  if (words.length === 0) return { words, hits: [], skipped: [] }
  const result = await ctx.workspace.search(path, {
    regex: `(?i)(${words.map(escape).join('|')})`,
    contextLines: 0,
    maxResults: LINES_READ,
    signal: ctx.signal
  })
  const hits = result.files.map((file) => rankFile(file, words))
  hits.sort((a, b) => b.terms - a.terms || b.lines.length - a.lines.length || (a.path < b.path ? -1 : 1))
  return {
    words,
    hits: hits.slice(0, limit).map((h) => ({ ...h, lines: h.lines.slice(0, LINES_PER_FILE) })),
    skipped: result.skipped ?? []
  }
}

function rankFile(file: SearchFileResult, words: readonly string[]): TextSearchHit {
  const found = new Set<string>()
  const lines = file.lines
    .filter((l) => l.isMatch)
    .map((l) => {
      const lower = l.text.toLowerCase()
      const held = words.filter((w) => lower.includes(w))
      for (const w of held) found.add(w)
      return { line: l.line, text: l.text.trim().slice(0, 300), held: held.length }
    })
    .sort((a, b) => b.held - a.held || a.line - b.line)
  return { path: file.path, terms: found.size, lines: lines.map(({ line, text }) => ({ line, text })) }
}

export function formatTextHits(hits: readonly TextSearchHit[]): string {
  return hits
    .map((hit) =>
      [`File path: ${hit.path}`, ...hit.lines.sort((a, b) => a.line - b.line).map((l) => `${l.line} | ${l.text}`)].join(
        '\n'
      )
    )
    .join('\n\n')
}
