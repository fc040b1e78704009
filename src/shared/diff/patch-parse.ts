/** Parser for the `*** Begin Patch` format (add / delete / update / move) (pure). */

export interface PatchChunk {
  /** Text after `@@ `, located before the old lines are sought; null for a bare `@@`. */
  changeContext: string | null
  oldLines: string[]
  newLines: string[]
  isEndOfFile: boolean
}

export type PatchHunk =
  | { type: 'AddFile'; path: string; contents: string }
  | { type: 'DeleteFile'; path: string }
  | { type: 'UpdateFile'; path: string; movePath: string | null; chunks: PatchChunk[] }

export class PatchParseError extends Error {
  override name = 'ParseError'
}

const BEGIN = '*** Begin Patch'
const END = '*** End Patch'
const ADD = '*** Add File: '
const DELETE = '*** Delete File: '
const UPDATE = '*** Update File: '
const MOVE = '*** Move to: '
const EOF_MARKER = '*** End of File'

/** Drops a shell heredoc wrapper (`<<EOF`, `<<'EOF'`, `<<"EOF"` … `EOF`) that models sometimes add. */
function unwrapHeredoc(lines: string[]): string[] {
  if (lines.length >= 2 && /^<<\s*(['"]?)(\w+)\1\s*$/.test(lines[0])) {
    const tag = /^<<\s*(['"]?)(\w+)\1/.exec(lines[0])![2]
    if (lines[lines.length - 1].trim() === tag) return lines.slice(1, -1)
  }
  return lines
}

export function parsePatch(text: string): PatchHunk[] {
  let lines = text.replace(/\r\n/g, '\n').trim().split('\n')
  lines = unwrapHeredoc(lines)
  if (lines[0]?.trim() !== BEGIN) throw new PatchParseError(`The first line of the patch must be '${BEGIN}'`)
  if (lines.length < 2 || lines[lines.length - 1].trim() !== END) {
    throw new PatchParseError(`The last line of the patch must be '${END}'`)
  }
  const body = lines.slice(1, -1)
  const hunks: PatchHunk[] = []
  let i = 0
  while (i < body.length) {
    const line = body[i]
    const lineNo = i + 2
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim()
      const content: string[] = []
      i++
      while (i < body.length && body[i].startsWith('+')) content.push(body[i++].slice(1))
      hunks.push({ type: 'AddFile', path, contents: content.map((l) => l + '\n').join('') })
    } else if (line.startsWith(DELETE)) {
      hunks.push({ type: 'DeleteFile', path: line.slice(DELETE.length).trim() })
      i++
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim()
      i++
      let movePath: string | null = null
      if (i < body.length && body[i].startsWith(MOVE)) movePath = body[i++].slice(MOVE.length).trim()
      const parsed = parseChunks(body, i, path, lineNo)
      i = parsed.next
      hunks.push({ type: 'UpdateFile', path, movePath, chunks: parsed.chunks })
    } else if (line.trim() === '') {
      i++
    } else {
      throw new PatchParseError(
        `Line ${lineNo}: '${line}' is not a valid hunk header. Valid headers: '${ADD}{path}', '${DELETE}{path}', '${UPDATE}{path}'`
      )
    }
  }
  return hunks
}

const isHunkHeader = (line: string): boolean =>
  line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE)

function parseChunks(
  body: string[],
  start: number,
  path: string,
  headerLineNo: number
): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = []
  let current: PatchChunk | null = null
  let i = start
  const open = (context: string | null): PatchChunk => {
    const chunk: PatchChunk = { changeContext: context, oldLines: [], newLines: [], isEndOfFile: false }
    chunks.push(chunk)
    return chunk
  }
  for (; i < body.length; i++) {
    const line = body[i]
    if (isHunkHeader(line)) break
    if (line === '@@' || line.startsWith('@@ ')) {
      const context = line === '@@' ? null : line.slice(3)
      current = open(context === '' ? null : context)
      continue
    }
    if (line.trim() === EOF_MARKER) {
      if (!current) throw new PatchParseError(`Line ${i + 2}: '${EOF_MARKER}' before any change in '${path}'`)
      current.isEndOfFile = true
      current = null
      continue
    }
    current ??= open(null)
    if (line === '') {
      current.oldLines.push('')
      current.newLines.push('')
    } else if (line[0] === ' ') {
      current.oldLines.push(line.slice(1))
      current.newLines.push(line.slice(1))
    } else if (line[0] === '-') {
      current.oldLines.push(line.slice(1))
    } else if (line[0] === '+') {
      current.newLines.push(line.slice(1))
    } else {
      throw new PatchParseError(
        `Line ${i + 2}: unexpected line in update of '${path}': '${line}'. Lines must start with ' ', '-', '+' or '@@'`
      )
    }
  }
  if (chunks.length === 0 || chunks.every((c) => c.oldLines.length === 0 && c.newLines.length === 0)) {
    throw new PatchParseError(`Line ${headerLineNo}: Update file hunk for path '${path}' is empty`)
  }
  return { chunks, next: i }
}

/** Path shown while a patch streams: the first complete file header, else the workspace's name. */
export function patchDisplayPath(partial: string | null | undefined, workspaceRoot: string): string {
  if (partial) {
    const lines = partial.split('\n')
    const complete = partial.endsWith('\n') ? lines : lines.slice(0, -1)
    for (const line of complete) {
      for (const prefix of [ADD, DELETE, UPDATE]) {
        if (line.startsWith(prefix) && line.slice(prefix.length).trim()) return line.slice(prefix.length).trim()
      }
    }
  }
  const parts = workspaceRoot.split(/[\\/]+/).filter(Boolean)
  return parts[parts.length - 1] ?? workspaceRoot
}
