import { fail, ok, type Result } from '../result'
import { isChannel, requests, type Handlers } from './index'

/**
 * Parses an untrusted request and runs its handler. Never throws: unknown channels, malformed
 * payloads and handler failures all come back as typed errors.
 */
export async function dispatch(handlers: Handlers, channel: unknown, payload: unknown): Promise<Result<unknown>> {
  if (typeof channel !== 'string' || !isChannel(channel)) {
    const shown = typeof channel === 'string' ? channel.slice(0, 80) : `(${typeof channel})`
    return fail('unknown_channel', `Unknown request channel: ${shown}`)
  }
  const parsed = requests[channel].input.safeParse(payload ?? {})
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`)
    return fail('invalid_payload', bounded(`Invalid payload for ${channel}: ${issues.join('; ')}`))
  }
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>
    return ok(await handler(parsed.data))
  } catch (error) {
    return fail(errorCode(error), bounded(error instanceof Error ? error.message : String(error)))
  }
}

const MAX_ERROR_CHARS = 2000

/** An error may quote the request (a path, a name): a huge input must not come back huge. */
function bounded(message: string): string {
  if (message.length <= MAX_ERROR_CHARS) return message
  return `${message.slice(0, MAX_ERROR_CHARS)}… (${message.length - MAX_ERROR_CHARS} more characters not shown)`
}

/** Handlers throw `UserFacingError` to pick the error code the renderer sees. */
export class UserFacingError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

const errorCode = (error: unknown): string => (error instanceof UserFacingError ? error.code : 'failed')
