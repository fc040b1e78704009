import type { ReactNode } from 'react'

/** A field's validation message, under the field; the field names it in `aria-describedby={id}`. */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }): ReactNode {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null
}
