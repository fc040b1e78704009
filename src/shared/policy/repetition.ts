/** Key order never matters: the same arguments in another order are the same call. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

export interface RepetitionCheck {
  allowExecution: boolean
  /** Set when blocked: the loop turns the call into an approval item with this message. */
  askUser?: { messageKey: 'mistake_limit_reached'; message: string }
  /** The text the model gets as this call's result when blocked. */
  toolResult?: string
}

export interface RepeatableCall {
  name: string
  params: unknown
}

/**
 * Blocks the same call (tool + canonical arguments) repeated consecutively past `limit`
 * (default 3: calls 1–3 run, the 4th is blocked). 0 turns it off. After a block it starts over.
 */
export class RepetitionDetector {
  private previous: string | undefined
  private count = 0

  constructor(readonly limit = 3) {}

  check(call: RepeatableCall): RepetitionCheck {
    const key = canonicalJson({ name: call.name, params: call.params ?? {} })
    if (key === this.previous) this.count++
    else {
      this.previous = key
      this.count = 0
    }
    if (this.limit > 0 && this.count >= this.limit) {
      this.reset()
      return {
        allowExecution: false,
        askUser: {
          messageKey: 'mistake_limit_reached',
          message: `Modus seems stuck in a loop: it made the same ${call.name} call ${this.limit + 1} times in a row. Run it anyway, or tell it what to do differently.`
        },
        toolResult: `Tool call repetition limit reached for ${call.name}. Please try a different approach.`
      }
    }
    return { allowExecution: true }
  }

  reset(): void {
    this.previous = undefined
    this.count = 0
  }
}

export const createRepetitionDetector = (limit = 3): RepetitionDetector => new RepetitionDetector(limit)
