import type { SearchFilesParams } from '../../../shared/tools/search-files'
import { InvalidRegexError, type SearchResult } from '../workspace/search'
import { describeSkipped } from '../workspace/skipped-folders'
import { outsideNote, workspaceErrorOutput } from './file-tool-errors'
import { textOutput, type FileToolContext, type ToolExecutor } from '../ports/tool-types'

export const SEARCH_MAX_RESULTS = 300
export const SEARCH_MAX_LINE_LENGTH = 500
export const SEARCH_CONTEXT_LINES = 1

export interface SearchFilesExecutorOptions {
  maxResults?: number
  contextLines?: number
  engine?: 'auto' | 'ripgrep' | 'builtin'
}

const cut = (text: string): string =>
  text.length > SEARCH_MAX_LINE_LENGTH
    ? `${text.slice(0, SEARCH_MAX_LINE_LENGTH)} […line cut at ${SEARCH_MAX_LINE_LENGTH} characters]`
    : text

/** `Found N results.` then per file `# path`, `N | line` rows, `----` between separate regions. */
export function formatSearchResult(result: SearchResult, maxResults: number): string {
  if (result.matches === 0) return 'Found 0 results.'
  const head = result.truncated
    ? `Showing first ${result.matches} of ${maxResults}+ results. Narrow the search (path, file_pattern or a more specific regex) to see the rest.`
    : `Found ${result.matches} result${result.matches === 1 ? '' : 's'}.`
  const blocks = result.files.map((file) => {
    const width = String(file.lines[file.lines.length - 1]?.line ?? 0).length
    const rows: string[] = [`# ${file.path}`]
    let previous = -1
    for (const l of file.lines) {
      if (previous !== -1 && l.line !== previous + 1) rows.push('----')
      rows.push(`${String(l.line).padStart(width)} | ${cut(l.text)}`)
      previous = l.line
    }
    return rows.join('\n')
  })
  return `${head}\n\n${blocks.join('\n----\n\n')}`
}

export function createSearchFilesExecutor(
  options: SearchFilesExecutorOptions = {}
): ToolExecutor<SearchFilesParams, FileToolContext> {
  const maxResults = options.maxResults ?? SEARCH_MAX_RESULTS
  const contextLines = options.contextLines ?? SEARCH_CONTEXT_LINES
  return {
    async execute(params, ctx) {
      try {
        const dir = await ctx.workspace.resolve(params.path)
        const result = await ctx.workspace.search(params.path, {
          regex: params.regex,
          filePattern: params.file_pattern,
          contextLines,
          maxResults,
          engine: options.engine,
          signal: ctx.signal
        })
        const note = dir.outsideWorkspace ? `Searched ${dir.display}${outsideNote(true)}.\n` : ''
        const skipped = describeSkipped(result.skipped ?? [])
        return textOutput(note + formatSearchResult(result, maxResults) + (skipped ? `\n\n${skipped}` : ''))
      } catch (err) {
        if (err instanceof InvalidRegexError) {
          return textOutput(
            `Error: invalid regular expression /${params.regex}/: ${err.message}\nFix the pattern (Rust regex syntax; escape special characters such as ( [ { . * + ?) and retry.`,
            true
          )
        }
        return workspaceErrorOutput(err)
      }
    }
  }
}

export const searchFilesExecutor = createSearchFilesExecutor()
