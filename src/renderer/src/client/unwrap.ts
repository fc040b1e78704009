import type { Result } from '../../../shared/result'

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

/** Turns a typed failure into an exception for code paths that show it as one message. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value
  throw new RequestError(result.error.code, result.error.message)
}
