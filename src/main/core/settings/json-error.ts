/**
 * Locates the first syntax error of a JSON text as line and column (1-based). Node 20's
 * `JSON.parse` message carries no position, and a user fixing settings by hand needs one.
 */
export interface JsonErrorLocation {
  line: number
  column: number
  message: string
}

export function locateJsonError(text: string): JsonErrorLocation | null {
  const scanner = createScanner(text)
  try {
    scanner.skipSpace()
    scanner.value()
    scanner.skipSpace()
    if (!scanner.atEnd()) scanner.fail('unexpected content after the JSON value')
    return null
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ...lineAndColumn(text, error.offset), message: error.message }
    throw error
  }
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number
  ) {
    super(message)
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

function createScanner(text: string) {
  let pos = 0
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, pos)
  }
  const describe = () => (pos >= text.length ? 'end of file' : `'${text[pos]}'`)
  const skipSpace = () => {
    while (pos < text.length && ' \t\r\n'.includes(text[pos])) pos++
  }
  const expect = (char: string) => {
    if (text[pos] !== char) fail(`expected '${char}' but found ${describe()}`)
    pos++
  }
  const string = () => {
    expect('"')
    while (pos < text.length && text[pos] !== '"') {
      const char = text[pos]
      if (char === '\n') fail('unterminated string')
      if (char === '\\') {
        pos++
        if (!'"\\/bfnrtu'.includes(text[pos] ?? '')) fail('invalid escape in string')
      }
      pos++
    }
    expect('"')
  }
  const literal = () => {
    const match = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(pos, pos + 400))
    if (!match) fail(`unexpected ${describe()}`)
    pos += (match as RegExpExecArray)[0].length
  }
  const sequence = (close: string, item: () => void) => {
    pos++
    skipSpace()
    if (text[pos] === close) return void pos++
    for (;;) {
      item()
      skipSpace()
      if (text[pos] === ',') {
        pos++
        skipSpace()
        if (text[pos] === close) fail(`trailing comma before '${close}'`)
        continue
      }
      return expect(close)
    }
  }
  const value = (): void => {
    skipSpace()
    const char = text[pos]
    if (char === '{') {
      return sequence('}', () => {
        skipSpace()
        string()
        skipSpace()
        expect(':')
        value()
      })
    }
    if (char === '[') return sequence(']', value)
    if (char === '"') return string()
    literal()
  }
  return { value, skipSpace, fail, atEnd: () => pos >= text.length }
}
