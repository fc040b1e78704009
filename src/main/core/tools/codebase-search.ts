import type { CodebaseSearchParams } from '../../../shared/tools/codebase-search'
import type { CodeIndex } from '../code-index/code-index'
import type { SearchHit } from '../code-index/hybrid'
import { describeSkipped } from '../workspace/skipped-folders'
import { outsideNote, workspaceErrorOutput } from './file-tool-errors'
import { formatTextHits, searchByWords } from './text-search-fallback'
import { textOutput, type FileToolContext, type ToolExecutor } from '../ports/tool-types'

export const CODEBASE_SEARCH_MAX_RESULTS = 10
/** Result text handed back at most (≈ 4 characters a token). */
export const CODEBASE_SEARCH_TOKEN_BUDGET = 6000
const CHARS_PER_TOKEN = 4

export interface CodebaseSearchOptions {
  /** The index of a workspace root (opened and built in the background on first use). */
  indexFor: (root: string) => Promise<CodeIndex>
  maxResults?: number
  tokenBudget?: number
}

function formatHit(hit: SearchHit): string {
  const parts = [
    hit.similarity !== undefined ? `semantic ${hit.similarity.toFixed(2)}` : '',
    hit.lexicalRank ? `lexical #${hit.lexicalRank}` : ''
  ].filter(Boolean)
  return [
    `File path: ${hit.chunk.path}`,
    `Score: ${hit.score.toFixed(3)} (${parts.join(', ')})`,
    `Lines: ${hit.chunk.startLine}-${hit.chunk.endLine}`,
    'Code Chunk:',
    hit.chunk.text
  ].join('\n')
}

/** Keeps whole results while they fit the budget; the first one is cut to fit rather than dropped. */
function withinBudget(hits: readonly SearchHit[], budgetChars: number): { blocks: string[]; left: number } {
  const blocks: string[] = []
  let used = 0
  for (const hit of hits) {
    let block = formatHit(hit)
    if (used + block.length > budgetChars) {
      if (blocks.length > 0) break
      block = `${block.slice(0, budgetChars)}\n[…chunk cut to fit the result budget; read_file lines ${hit.chunk.startLine}-${hit.chunk.endLine} for the rest]`
    }
    blocks.push(block)
    used += block.length
  }
  return { blocks, left: hits.length - blocks.length }
}

export function createCodebaseSearchExecutor(
  options: CodebaseSearchOptions
): ToolExecutor<CodebaseSearchParams, FileToolContext> {
  const maxResults = options.maxResults ?? CODEBASE_SEARCH_MAX_RESULTS
  const budgetChars = (options.tokenBudget ?? CODEBASE_SEARCH_TOKEN_BUDGET) * CHARS_PER_TOKEN
  return {
    async execute(params, ctx) {
      try {
        let pathPrefix: string | undefined
        if (params.path && params.path !== '.') {
          const target = await ctx.workspace.resolve(params.path)
          if (target.outsideWorkspace)
            return textOutput(
              `Error: ${target.display}${outsideNote(true)}: codebase_search covers the workspace only.`,
              true
            )
          if (target.kind === 'missing') return textOutput(`Error: ${params.path} was not found.`, true)
          if (target.ignored)
            return textOutput(
              `Error: ${target.display} is excluded by the workspace's ignore file (.modusignore / .rooignore): codebase_search does not search it.`,
              true
            )
          pathPrefix = target.display === '.' ? undefined : target.display
        }
        const index = await options.indexFor(ctx.workspace.root)
        const outcome = await index.search(params.query, { limit: maxResults, pathPrefix, signal: ctx.signal })
        if (!outcome.complete) {
          // The first build is still running: a partial index would hide what it has not reached.
          const { filesDone, filesTotal } = outcome.progress
          const {
            words,
            hits,
            skipped: notSearched
          } = await searchByWords(params.query, pathPrefix ?? '.', maxResults, ctx)
          const progress = filesTotal > 0 ? `${filesDone} of ${filesTotal} files indexed` : 'scanning the workspace'
          const head = `The code index is still being built (${progress}): these results come from a plain text search of the workspace for the words ${words.join(', ') || '(none usable)'}, files ranked by how many of them they hold, not by meaning.`
          const skipped = describeSkipped(notSearched)
          const body = hits.length === 0 ? 'No file holds any of these words.' : formatTextHits(hits)
          return textOutput(
            [
              head,
              ...(skipped ? [skipped] : []),
              `Query: ${params.query}${pathPrefix ? ` (in ${pathPrefix})` : ''}`,
              '',
              body
            ].join('\n')
          )
        }
        const visible = outcome.hits.filter((h) => !ctx.workspace.isIgnored(h.chunk.path))
        const skipped = describeSkipped(outcome.skipped)
        const head = [
          ...outcome.notes,
          ...(skipped ? [skipped] : []),
          `Query: ${params.query}${pathPrefix ? ` (in ${pathPrefix})` : ''} — ${outcome.mode === 'hybrid' ? 'semantic + lexical' : 'lexical'} ranking`
        ]
        if (visible.length === 0) return textOutput(`${head.join('\n')}\nNo results found.`)
        const { blocks, left } = withinBudget(visible, budgetChars)
        const tail =
          left > 0
            ? `\n\n(${left} more results left out to stay within the result budget; narrow the query or the path.)`
            : ''
        return textOutput(`${head.join('\n')}\n\n${blocks.join('\n\n')}${tail}`)
      } catch (err) {
        return workspaceErrorOutput(err)
      }
    }
  }
}
