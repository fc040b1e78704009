import { extname } from 'node:path'
import { readFileTool, type ReadFileParams } from '../../../shared/tools/read-file'
import { DEFAULT_LINE_LIMIT, formatLines, MAX_LINE_LENGTH, readWithIndentation } from '../../../shared/diff/read-lines'
import { outsideNote, workspaceErrorOutput } from './file-tool-errors'
import { textOutput, type FileToolContext, type ToolExecutor, type ToolOutput } from '../ports/tool-types'

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.avif': 'image/avif'
}
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

/**
 * Argument problems stated the way read_file's users expect (checked before the file is touched).
 * Returns null when the arguments are valid.
 */
export function readFileArgumentError(raw: unknown): string | null {
  const args = (raw ?? {}) as Record<string, unknown>
  if (typeof args.path !== 'string' || args.path.trim() === '') {
    return "Error: Missing value for required parameter 'path'. Retry with the path of the file to read."
  }
  if (typeof args.offset === 'number' && args.offset < 1) {
    return `Error: offset must be a 1-indexed line number (got ${args.offset}). Line numbers start at 1.`
  }
  const indentation = args.indentation as Record<string, unknown> | undefined
  if (indentation && typeof indentation.anchor_line === 'number' && indentation.anchor_line < 1) {
    return `Error: anchor_line must be a 1-indexed line number (got ${indentation.anchor_line}). Line numbers start at 1.`
  }
  const parsed = readFileTool.params.safeParse(raw)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')
    return `Error: invalid read_file arguments: ${issues}`
  }
  return null
}

async function readImage(params: ReadFileParams, ctx: FileToolContext, mediaType: string): Promise<ToolOutput> {
  const resolved = await ctx.workspace.resolve(params.path)
  if (!ctx.modelSupportsImages) {
    return textOutput(
      `'${resolved.display}' is an image (${mediaType}). The current model does not accept images, so its content cannot be shown.`
    )
  }
  const { path, bytes } = await ctx.workspace.readBytes(params.path, { maxBytes: MAX_IMAGE_BYTES })
  return {
    content: [
      {
        type: 'text',
        text: `File: ${path.display}${outsideNote(path.outsideWorkspace)} (${mediaType}, ${bytes.length} bytes)`
      },
      { type: 'image', mediaType, dataBase64: Buffer.from(bytes).toString('base64') }
    ],
    isError: false
  }
}

async function readSlice(params: ReadFileParams, ctx: FileToolContext): Promise<ToolOutput> {
  const offset = params.offset ?? 1
  const limit = params.limit ?? DEFAULT_LINE_LIMIT
  const range = await ctx.workspace.readLines(params.path, offset, limit)
  const resolved = await ctx.workspace.resolve(params.path)
  const header = `File: ${resolved.display}${outsideNote(resolved.outsideWorkspace)}`
  if (range.totalLines === 0) return textOutput(`${header}\nNote: File is empty`)
  if (offset > range.totalLines) {
    return textOutput(`${header}\nError: offset ${offset} is beyond file end (${range.totalLines} lines)`, true)
  }
  const last = offset + range.lines.length - 1
  const numbered = range.lines.map((content, i) => ({ lineNumber: offset + i, content }))
  const body = formatLines(numbered) + longLinesNote(numbered, resolved.display)
  if (offset === 1 && last >= range.totalLines) return textOutput(`${header}\n${body}`)
  const note =
    `IMPORTANT: File content truncated.\n\tStatus: Showing lines ${offset}-${last} of ${range.totalLines} total lines.` +
    (last < range.totalLines
      ? `\n\tTo read more: Use the read_file tool with offset=${last + 1} and limit=${limit}.`
      : '')
  return textOutput(`${header}\n${note}\n\n${body}`)
}

const LONG_LINES_NAMED = 3

/**
 * A line longer than read_file shows ends in "..." (the format Roo's vectors fix): say which lines
 * were cut, how long they really are, and how to get at the rest, so the model does not take the
 * cut text for the whole line. read_file has no character range; a search or a command does.
 */
export function longLinesNote(lines: ReadonlyArray<{ lineNumber: number; content: string }>, display: string): string {
  const cut = lines.filter((line) => line.content.length > MAX_LINE_LENGTH)
  if (cut.length === 0) return ''
  const shown = (MAX_LINE_LENGTH - 3).toLocaleString('en-US')
  const named = cut
    .slice(0, LONG_LINES_NAMED)
    .map((line) => `line ${line.lineNumber} has ${line.content.length.toLocaleString('en-US')} characters`)
    .join(', ')
  const more = cut.length > LONG_LINES_NAMED ? ` (and ${cut.length - LONG_LINES_NAMED} more long lines)` : ''
  const first = cut[0]
  return (
    `\n\nNote: lines longer than ${MAX_LINE_LENGTH.toLocaleString('en-US')} characters are cut here to their first ${shown}, ending in "...": ${named}${more}. ` +
    `read_file cannot show the rest of a line. search_files with a regex tells whether (and on which line) a text occurs; ` +
    `to see a stretch of a long line, run a command such as \`sed -n '${first.lineNumber}p' ${shellQuote(display)} | cut -c ${MAX_LINE_LENGTH - 2}-${MAX_LINE_LENGTH * 3}\`.`
  )
}

const shellQuote = (text: string): string => (/^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

async function readIndentation(params: ReadFileParams, ctx: FileToolContext): Promise<ToolOutput> {
  const file = await ctx.workspace.readText(params.path)
  const text = file.text.replace(/\r\n/g, '\n').replace(/\n$/, '')
  const ind = params.indentation ?? {}
  const result = readWithIndentation(text, {
    anchorLine: ind.anchor_line ?? params.offset ?? 1,
    maxLevels: ind.max_levels,
    includeSiblings: ind.include_siblings,
    includeHeader: ind.include_header,
    limit: params.limit ?? DEFAULT_LINE_LIMIT,
    maxLines: ind.max_lines
  })
  const header = `File: ${file.path.display}${outsideNote(file.path.outsideWorkspace)}`
  if (result.returnedLines === 0) return textOutput(`${header}\n${result.content}`, true)
  const [[from, to]] = result.includedRanges
  const note = result.wasTruncated
    ? `\n\n(Block truncated at ${result.returnedLines} lines; raise limit/max_lines or read lines ${from}-${to} onward with slice mode.)`
    : ''
  const shown = text
    .split('\n')
    .slice(from - 1, to)
    .map((content, i) => ({ lineNumber: from + i, content }))
  const cut = longLinesNote(shown, file.path.display)
  return textOutput(
    `${header}\n${result.content}\n\nIncluded ranges: ${from}-${to} (total: ${result.totalLines} lines)${note}${cut}`
  )
}

export const readFileExecutor: ToolExecutor<ReadFileParams, FileToolContext> = {
  async execute(params, ctx) {
    const argError = readFileArgumentError(params)
    if (argError) return textOutput(argError, true)
    try {
      const mediaType = IMAGE_TYPES[extname(params.path).toLowerCase()]
      if (mediaType) return await readImage(params, ctx, mediaType)
      return params.mode === 'indentation' ? await readIndentation(params, ctx) : await readSlice(params, ctx)
    } catch (err) {
      return workspaceErrorOutput(err)
    }
  }
}
