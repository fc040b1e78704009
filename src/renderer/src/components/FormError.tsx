import type { ReactNode } from 'react'

/** A failure message announced to screen readers; nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }): ReactNode {
  return message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null
}
