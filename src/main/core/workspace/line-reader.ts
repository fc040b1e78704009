import { open } from 'node:fs/promises'

const CHUNK = 1 << 20

/**
 * Reads lines `offset … offset+limit−1` (1-based) of a UTF-8/Latin-1 file chunk by chunk: only the
 * requested lines are kept; the rest is scanned for newlines to count the total.
 */
export async function readLineWindow(
  path: string,
  offset: number,
  limit: number,
  decode: (bytes: Buffer) => string
): Promise<{ lines: string[]; totalLines: number }> {
  const handle = await open(path, 'r')
  const buffer = Buffer.allocUnsafe(CHUNK)
  const kept: Buffer[] = []
  let line = 1 // 1-based number of the line the next byte belongs to
  const first = offset
  const last = offset + limit - 1
  let sawBytesOnLine = false
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null)
      if (bytesRead === 0) break
      const chunk = buffer.subarray(0, bytesRead)
      let start = 0
      for (;;) {
        const nl = chunk.indexOf(10, start)
        const end = nl === -1 ? bytesRead : nl + 1
        if (line >= first && line <= last) kept.push(Buffer.from(chunk.subarray(start, end)))
        sawBytesOnLine = nl === -1 ? sawBytesOnLine || end > start : false
        if (nl === -1) break
        line++
        start = nl + 1
      }
    }
  } finally {
    await handle.close()
  }
  // A final newline ends the last line rather than starting an empty one.
  const totalLines = sawBytesOnLine ? line : line - 1
  const text = decode(Buffer.concat(kept))
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  if (lines.length && lines[lines.length - 1] === '' && text.endsWith('\n')) lines.pop()
  return {
    lines: lines.slice(0, Math.max(0, Math.min(limit, totalLines - offset + 1))),
    totalLines: Math.max(totalLines, 0)
  }
}
