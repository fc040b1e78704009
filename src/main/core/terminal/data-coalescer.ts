/**
 * Batches terminal output for the UI bridge: one event per terminal per interval (or as soon as a
 * batch is large), instead of one per pty chunk. The pty delivers 1–4 kB chunks; an IPC message
 * per chunk would cost more than the capture itself.
 */
export interface DataCoalescer {
  push(terminalId: string, text: string): void
  flush(terminalId?: string): void
  dispose(): void
}

export function createDataCoalescer(
  deliver: (terminalId: string, data: string) => void,
  options: { intervalMs?: number; maxChars?: number } = {}
): DataCoalescer {
  const intervalMs = options.intervalMs ?? 16
  const maxChars = options.maxChars ?? 256 * 1024
  const pending = new Map<string, { parts: string[]; size: number }>()
  let timer: NodeJS.Timeout | null = null

  const flushOne = (terminalId: string): void => {
    const entry = pending.get(terminalId)
    if (!entry) return
    pending.delete(terminalId)
    deliver(terminalId, entry.parts.length === 1 ? entry.parts[0] : entry.parts.join(''))
  }

  const flushAll = (): void => {
    timer = null
    for (const terminalId of [...pending.keys()]) flushOne(terminalId)
  }

  return {
    push(terminalId, text) {
      if (!text) return
      let entry = pending.get(terminalId)
      if (!entry) pending.set(terminalId, (entry = { parts: [], size: 0 }))
      entry.parts.push(text)
      entry.size += text.length
      if (entry.size >= maxChars) flushOne(terminalId)
      else timer ??= setTimeout(flushAll, intervalMs)
    },
    flush(terminalId) {
      if (terminalId === undefined) flushAll()
      else flushOne(terminalId)
    },
    dispose() {
      if (timer) clearTimeout(timer)
      timer = null
      pending.clear()
    }
  }
}
