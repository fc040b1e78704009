/** Typed outcome of every request crossing the renderer/core boundary. */
export interface ContractError {
  /** Machine-readable reason: `invalid_payload`, `unknown_channel`, `not_found`, `failed`, … */
  code: string
  message: string
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = (code: string, message: string): Result<never> => ({
  ok: false,
  error: { code, message }
})
