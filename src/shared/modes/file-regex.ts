import { RE2JS } from 're2js'

/**
 * A mode's `fileRegex` comes from project files and the UI: untrusted input. It runs on RE2JS, a
 * linear-time engine (RE2 semantics), so a pattern like `^(a+)+$` cannot freeze the core; the
 * backtracking-only syntax (lookaround, backreferences) is refused with the engine's reason.
 */
const compiled = new Map<string, RE2JS | string>()
const MAX_CACHED = 256

function compile(source: string): RE2JS | string {
  const cached = compiled.get(source)
  if (cached !== undefined) return cached
  let result: RE2JS | string
  try {
    result = RE2JS.compile(source)
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '')
    result = validInJavaScript(source)
      ? `Not supported in file patterns: ${reason}. File patterns use RE2 syntax, which runs in linear time: no lookahead, lookbehind or backreferences.`
      : `Invalid regular expression: ${reason}`
  }
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string)
  compiled.set(source, result)
  return result
}

/** Compiling (never running) a JavaScript regex only tells a typo from RE2-unsupported syntax. */
function validInJavaScript(source: string): boolean {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

/** Why the pattern cannot be used, or null when it can. */
export function fileRegexProblem(source: string): string | null {
  const result = compile(source)
  return typeof result === 'string' ? result : null
}

/** Whether the pattern matches anywhere in the path (as `RegExp.test` would); false when invalid. */
export function matchesFileRegex(source: string, path: string): boolean {
  const result = compile(source)
  return typeof result !== 'string' && result.matcher(path).find()
}
