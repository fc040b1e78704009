import { z } from 'zod'

/** NUL, C0 and C1 controls and DEL: bash drops a NUL and a control character hides what a name is. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/

export const hasControlCharacter = (text: string): boolean => CONTROL_CHARACTER.test(text)

/** A path argument: non-empty and free of control characters, refused as an invalid argument otherwise. */
export const pathParam = (description: string) =>
  z
    .string()
    .min(1)
    .refine((path) => !hasControlCharacter(path), 'must not contain a NUL or another control character')
    .describe(description)
