import type { z } from 'zod'

/** One request channel: the zod schema of what the renderer sends and of what the core answers. */
export interface RequestSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
}

export const request = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): RequestSpec<I, O> => ({
  input,
  output
})
