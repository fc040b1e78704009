/**
 * The arguments of a tool call still being streamed, read from incomplete JSON: open strings,
 * arrays and objects are closed and a dangling key or comma dropped. Undefined when nothing
 * usable can be read yet. Shown on the tool card instead of the raw text.
 */
export function parsePartialJson(text: string): unknown {
  const source = text.trim()
  if (!source) return undefined
  try {
    return JSON.parse(source)
  } catch {
    // Incomplete: close it below.
  }
  const closers: string[] = []
  let inString = false
  let escaped = false
  for (const char of source) {
    if (inString) {
      if (escaped) escaped = false
      else if (char === '\\') escaped = true
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{') closers.push('}')
    else if (char === '[') closers.push(']')
    else if (char === '}' || char === ']') closers.pop()
  }
  let body = source
  if (inString) body = (escaped ? body.slice(0, -1) : body) + '"'
  for (const candidate of [body, withoutDanglingEntry(body)]) {
    try {
      return JSON.parse(candidate + [...closers].reverse().join(''))
    } catch {
      // Try the next repair.
    }
  }
  return undefined
}

/** Drops a trailing `,`, `"key"`, `"key":` or a cut literal (`tr`, `-`) so the object closes cleanly. */
function withoutDanglingEntry(body: string): string {
  return body
    .replace(/,\s*"(?:[^"\\]|\\.)*"\s*:?\s*$/, '')
    .replace(/,\s*"(?:[^"\\]|\\.)*"\s*:\s*[^\s"{[\]},]*$/, '')
    .replace(/\{\s*"(?:[^"\\]|\\.)*"\s*:?\s*$/, '{')
    .replace(/\{\s*"(?:[^"\\]|\\.)*"\s*:\s*[^\s"{[\]},]*$/, '{')
    .replace(/[,:]\s*$/, '')
}
