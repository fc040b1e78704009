/** Parses a tool call's accumulated JSON arguments; an empty string means no arguments. */
export function parseToolArguments(rawArgs: string): { input: unknown; parseError?: string } {
  if (rawArgs.trim() === '') return { input: {} }
  try {
    return { input: JSON.parse(rawArgs) }
  } catch (error) {
    return { input: null, parseError: `The tool arguments are not valid JSON (${(error as Error).message}).` }
  }
}

export const CUT_OFF_TOOL_CALL = 'The tool call was cut off before its arguments were complete (output limit reached).'
