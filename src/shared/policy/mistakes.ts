export type MistakeKind = 'validation' | 'missing_parameter' | 'no_tool_used' | 'edit_failed' | 'tool_error'

export const MISTAKE_GUIDANCE_PROMPT =
  'The model keeps making mistakes. A hint from you (for example “break the task into smaller steps”) usually gets it back on track.'

/**
 * Consecutive mistakes (validation errors, missing parameters, no tool used, failed edits). At the
 * limit (default 3; 0 = off) the loop pauses and asks the user for guidance; it never aborts.
 */
export class MistakeCounter {
  private count = 0
  private readonly kinds: MistakeKind[] = []

  constructor(readonly limit = 3) {}

  record(kind: MistakeKind): void {
    this.count++
    this.kinds.push(kind)
  }

  /** A tool ran successfully: the streak ends. */
  succeed(): void {
    this.count = 0
    this.kinds.length = 0
  }

  get current(): number {
    return this.count
  }

  /** Checked before each request: true means pause and ask the user first. */
  shouldPause(): boolean {
    return this.limit > 0 && this.count >= this.limit
  }

  /** The user answered (with or without guidance): count again from zero. */
  resume(): MistakeKind[] {
    const kinds = [...this.kinds]
    this.succeed()
    return kinds
  }
}

export const createMistakeCounter = (limit = 3): MistakeCounter => new MistakeCounter(limit)
