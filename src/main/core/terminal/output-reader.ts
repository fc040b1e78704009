import { open, stat } from 'node:fs/promises'
import { collapseCarriageReturns } from './ansi'
import type { SaveStopped } from './output-capture'

/** Paging and searching a saved command output (`read_command_output`). Offsets are bytes. */
export interface OutputReadRequest {
  offset?: number
  limit?: number
  search?: string
}

export interface OutputPage {
  /** Total size of the file now (it grows while the command runs). */
  totalBytes: number
  /** Byte range the text covers (read mode) or was scanned (search mode). */
  start: number
  end: number
  text: string
  /** Search mode: number of matching lines returned, and whether more were cut. */
  matches?: number
  moreMatches?: boolean
  /** Search mode: the pattern was not a valid regex and was matched literally. */
  literal?: boolean
  /** The file stops short of what the command printed (disk full, size limit): nothing after `atByte` can be read or found. */
  saveStopped?: SaveStopped
}

export const DEFAULT_READ_LIMIT = 40_000
const MAX_READ_LIMIT = 1_000_000
const SEARCH_CHUNK = 64 * 1024
const MAX_MATCH_LINE = 2000
const MAX_CARRY = 1024 * 1024

export async function readOutputFile(path: string, request: OutputReadRequest): Promise<OutputPage> {
  const totalBytes = (await stat(path)).size
  const offset = Math.max(0, Math.min(request.offset ?? 0, totalBytes))
  const limit = Math.max(1, Math.min(request.limit ?? DEFAULT_READ_LIMIT, MAX_READ_LIMIT))
  return request.search
    ? searchFile(path, request.search, offset, limit, totalBytes)
    : readRange(path, offset, limit, totalBytes)
}

async function readRange(path: string, offset: number, limit: number, totalBytes: number): Promise<OutputPage> {
  const handle = await open(path, 'r')
  try {
    // Read 3 extra bytes so a UTF-8 character cut by the limit can be completed.
    const length = Math.min(limit + 3, totalBytes - offset)
    const buffer = Buffer.alloc(Math.max(0, length))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
    const bytes = buffer.subarray(0, bytesRead)
    let start = 0
    while (start < bytes.length && start < 3 && isContinuation(bytes[start])) start++
    let end = Math.min(bytes.length, limit)
    while (end < bytes.length && isContinuation(bytes[end])) end++
    return {
      totalBytes,
      start: offset + start,
      end: offset + end,
      text: collapseCarriageReturns(bytes.subarray(start, end).toString('utf8'))
    }
  } finally {
    await handle.close()
  }
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80

/** Case-insensitive regex over lines; an invalid pattern is matched literally. */
export function compileSearch(pattern: string): { regex: RegExp; literal: boolean } {
  try {
    return { regex: new RegExp(pattern, 'i'), literal: false }
  } catch {
    return { regex: new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), literal: true }
  }
}

async function searchFile(
  path: string,
  pattern: string,
  offset: number,
  limit: number,
  totalBytes: number
): Promise<OutputPage> {
  const { regex, literal } = compileSearch(pattern)
  const handle = await open(path, 'r')
  const lines: string[] = []
  let used = 0
  let matches = 0
  let moreMatches = false
  let lineNumber = await countLinesBefore(handle, offset)
  let position = offset
  let carry = Buffer.alloc(0)
  try {
    const buffer = Buffer.alloc(SEARCH_CHUNK)
    scan: while (position < totalBytes) {
      const { bytesRead } = await handle.read(buffer, 0, SEARCH_CHUNK, position)
      if (bytesRead === 0) break
      position += bytesRead
      let data = Buffer.concat([carry, buffer.subarray(0, bytesRead)])
      const lastNewline = data.lastIndexOf(10)
      const atEnd = position >= totalBytes
      if (lastNewline < 0 && !atEnd && data.length < MAX_CARRY) {
        carry = data
        continue
      }
      // A line longer than MAX_CARRY is searched in pieces; search lines are cut anyway.
      const splitAt = atEnd || lastNewline < 0 ? data.length : lastNewline
      carry = data.subarray(Math.min(data.length, splitAt + 1))
      data = data.subarray(0, splitAt)
      for (const rawLine of data.toString('utf8').split('\n')) {
        lineNumber++
        const line = collapseCarriageReturns(rawLine).slice(0, MAX_MATCH_LINE)
        if (!regex.test(line)) continue
        const row = `${lineNumber}: ${line}`
        if (used + row.length + 1 > limit) {
          moreMatches = true
          break scan
        }
        lines.push(row)
        used += row.length + 1
        matches++
      }
    }
  } finally {
    await handle.close()
  }
  return {
    totalBytes,
    start: offset,
    end: moreMatches ? position : totalBytes,
    text: lines.join('\n'),
    matches,
    moreMatches,
    literal
  }
}

/** Line number of the byte at `offset`, so search results show absolute line numbers. */
async function countLinesBefore(handle: import('node:fs/promises').FileHandle, offset: number): Promise<number> {
  let count = 0
  let position = 0
  const buffer = Buffer.alloc(SEARCH_CHUNK)
  while (position < offset) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(SEARCH_CHUNK, offset - position), position)
    if (bytesRead === 0) break
    for (let i = 0; i < bytesRead; i++) if (buffer[i] === 10) count++
    position += bytesRead
  }
  return count
}
