/** Parsing and marker validation of `<<<<<<< SEARCH / ======= / >>>>>>> REPLACE` blocks (pure). */

export interface SearchReplaceBlock {
  /** 0-based position of the block in the diff. */
  index: number
  /** 1-based line hint from `:start_line:` (or from `N | ` prefixes on the search lines). */
  startLine?: number
  endLine?: number
  search: string[]
  replace: string[]
}

export type ParseResult = { ok: true; blocks: SearchReplaceBlock[] } | { ok: false; error: string }

const SEARCH_RE = /^<<<<<<< SEARCH>?\s*$/
const SEPARATOR_RE = /^=======\s*$/
const REPLACE_RE = /^>>>>>>> REPLACE\s*$/
const DASHES_RE = /^-------\s*$/
const LINE_HINT_RE = /^\s*:(start|end)_line:\s*(\d+)\s*$/
const HINT_ANYWHERE_RE = /^\s*:(start_line|end_line):/
const CONFLICT_START_RE = /^<<<<<<<(?! SEARCH>?\s*$)/
const CONFLICT_END_RE = /^>>>>>>>(?! REPLACE\s*$)/
const ESCAPED_RE = /^\\(?=<<<<<<<|=======|>>>>>>>|-------|:start_line:|:end_line:)/
const NUMBERED_RE = /^\s*\d+ \|(?: |$)/

const FORMAT_HELP = [
  'CORRECT FORMAT:',
  '',
  '<<<<<<< SEARCH',
  ':start_line: (optional) the line where the search starts',
  '-------',
  '[exact content to find, whitespace included]',
  '=======',
  '[new content to replace it with]',
  '>>>>>>> REPLACE'
].join('\n')

type State = 'outside' | 'search' | 'replace'

const expectedAfter: Record<State, string> = {
  outside: "'<<<<<<< SEARCH'",
  search: "'======='",
  replace: "'>>>>>>> REPLACE'"
}

function malformed(marker: string, lineNo: number, state: State): string {
  return (
    `ERROR: Diff block is malformed: marker '${marker}' found in your diff content at line ${lineNo}. ` +
    `Expected: ${expectedAfter[state]}.\n\n${FORMAT_HELP}`
  )
}

function conflictMarker(marker: string, lineNo: number): string {
  return (
    `ERROR: Special marker '${marker}' found in your diff content at line ${lineNo}:\n\n` +
    `When removing merge conflict markers like '${marker}' from files, you MUST escape them in your ` +
    `SEARCH and REPLACE sections with a backslash (\\) at the start of the line, e.g. \\${marker}\n\n${FORMAT_HELP}`
  )
}

function lineMarkerInReplace(marker: string, lineNo: number): string {
  return [
    `ERROR: Invalid line marker '${marker}' found in REPLACE section at line ${lineNo}`,
    '',
    'Line markers (:start_line: and :end_line:) are only allowed in SEARCH sections.',
    '',
    'CORRECT FORMAT:',
    '<<<<<<< SEARCH',
    ':start_line:5',
    '-------',
    'content to find',
    '=======',
    'replacement content',
    '>>>>>>> REPLACE',
    '',
    'INCORRECT FORMAT:',
    '<<<<<<< SEARCH',
    'content to find',
    '=======',
    ':start_line:5    <-- Invalid location',
    'replacement content',
    '>>>>>>> REPLACE',
    '',
    'To write a literal line marker in replacement text, escape it with a leading backslash: \\:start_line:'
  ].join('\n')
}

const unescape = (line: string): string => line.replace(ESCAPED_RE, '')

interface Draft {
  startLine?: number
  endLine?: number
  headerDone: boolean
  search: string[]
  replace: string[]
}

/** Parses a diff; any marker out of sequence is an error naming the line and the expected marker. */
export function parseSearchReplace(diff: string): ParseResult {
  const lines = diff.replace(/\r\n/g, '\n').split('\n')
  const blocks: SearchReplaceBlock[] = []
  let state: State = 'outside'
  let draft: Draft = { headerDone: false, search: [], replace: [] }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const lineNo = i + 1
    if (state === 'outside') {
      if (SEARCH_RE.test(line)) {
        state = 'search'
        draft = { headerDone: false, search: [], replace: [] }
      } else if (SEPARATOR_RE.test(line) || REPLACE_RE.test(line)) {
        return { ok: false, error: malformed(line.trim(), lineNo, state) }
      }
      continue
    }
    if (state === 'search') {
      if (!draft.headerDone) {
        const hint = LINE_HINT_RE.exec(line)
        if (hint) {
          if (hint[1] === 'start') draft.startLine = Number(hint[2])
          else draft.endLine = Number(hint[2])
          continue
        }
        draft.headerDone = true
        if (DASHES_RE.test(line)) continue
      }
      if (SEPARATOR_RE.test(line)) state = 'replace'
      else if (REPLACE_RE.test(line)) return { ok: false, error: malformed(line.trim(), lineNo, state) }
      else if (SEARCH_RE.test(line)) return { ok: false, error: malformed(line.trim(), lineNo, state) }
      else if (CONFLICT_END_RE.test(line) || CONFLICT_START_RE.test(line))
        return { ok: false, error: conflictMarker(line.trim(), lineNo) }
      else draft.search.push(unescape(line))
      continue
    }
    // state === 'replace'
    if (REPLACE_RE.test(line)) {
      blocks.push(finishBlock(blocks.length, draft))
      state = 'outside'
    } else if (SEPARATOR_RE.test(line)) {
      return { ok: false, error: conflictMarker(line.trim(), lineNo) }
    } else if (SEARCH_RE.test(line)) {
      return { ok: false, error: malformed(line.trim(), lineNo, state) }
    } else if (CONFLICT_END_RE.test(line) || CONFLICT_START_RE.test(line)) {
      return { ok: false, error: conflictMarker(line.trim(), lineNo) }
    } else if (HINT_ANYWHERE_RE.test(line)) {
      const marker = HINT_ANYWHERE_RE.exec(line)![1]
      return { ok: false, error: lineMarkerInReplace(`:${marker}:`, lineNo) }
    } else {
      draft.replace.push(unescape(line))
    }
  }
  if (state !== 'outside') {
    return {
      ok: false,
      error: `ERROR: Unexpected end of sequence: Expected ${expectedAfter[state]} was not found.\n\n${FORMAT_HELP}`
    }
  }
  if (blocks.length === 0) {
    return {
      ok: false,
      error: `Invalid diff format - missing required sections. The diff must contain at least one SEARCH/REPLACE block.\n\n${FORMAT_HELP}`
    }
  }
  return { ok: true, blocks }
}

function finishBlock(index: number, draft: Draft): SearchReplaceBlock {
  let { search, replace, startLine } = draft
  const numbered = (ls: string[]): boolean =>
    ls.some((l) => l !== '') && ls.every((l) => l === '' || NUMBERED_RE.test(l))
  if (numbered(search)) {
    const first = search.find((l) => l !== '')!
    startLine ??= Number(/\d+/.exec(first)![0])
    search = search.map(stripNumber)
    if (numbered(replace)) replace = replace.map(stripNumber)
  }
  return { index, startLine, endLine: draft.endLine, search, replace }
}

const stripNumber = (line: string): string => unescape(line.replace(NUMBERED_RE, ''))
