import type { ArithmeticUse, CommandOrigin, ShellCommand, ShellParse, ShellRedirect, ShellWord } from './types'

class ShellSyntaxError extends Error {}

const RESERVED_PREFIX = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time'])
const RESERVED_ALONE = new Set(['fi', 'done'])
const UNSUPPORTED = new Set(['coproc'])
/** Compound commands a function body may be besides `{ … }` and `( … )`. */
const COMPOUND_BODY = ['if', 'while', 'until', 'for', 'select', 'case', '[[']
/** Bash drops a NUL (`r\0m` runs `rm`); other control characters hide what runs. */
const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/
/** Characters with no special meaning in an unquoted word. */
const PLAIN = /[A-Za-z0-9_.,:+=%@^~/-]/
const NAME_ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/

const isBlank = (c: string): boolean => c === ' ' || c === '\t'
const isNewline = (c: string): boolean => c === '\n' || c === '\r'
/** Characters that end an unquoted word. */
const isMeta = (c: string): boolean =>
  c === ' ' ||
  c === '\t' ||
  c === '\n' ||
  c === '\r' ||
  c === ';' ||
  c === '&' ||
  c === '|' ||
  c === '(' ||
  c === ')' ||
  c === '<' ||
  c === '>'

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?'
}

function decodeAnsiEscape(src: string, at: number): { text: string; next: number } {
  const c = src[at]
  if (c in SIMPLE_ESCAPES) return { text: SIMPLE_ESCAPES[c], next: at + 1 }
  const patterns: Array<[RegExp, number]> = [
    [/^x([0-9A-Fa-f]{1,2})/, 16],
    [/^u([0-9A-Fa-f]{1,4})/, 16],
    [/^U([0-9A-Fa-f]{1,8})/, 16],
    [/^([0-7]{1,3})/, 8]
  ]
  const rest = src.slice(at, at + 10)
  for (const [pattern, radix] of patterns) {
    const match = pattern.exec(rest)
    if (match) {
      const code = parseInt(match[1], radix)
      return { text: code <= 0x10ffff ? String.fromCodePoint(code) : '', next: at + match[0].length }
    }
  }
  if (c === 'c' && at + 1 < src.length) return { text: String.fromCharCode(src.charCodeAt(at + 1) & 31), next: at + 2 }
  return { text: '\\' + (c ?? ''), next: at + 1 }
}

interface PendingHeredoc {
  redirect: ShellRedirect
  delimiter: string
  stripTabs: boolean
  expands: boolean
  origin: CommandOrigin
}

interface Cut {
  start: number
  end: number
}

/**
 * A recursive-descent reader for POSIX/bash command lines: lists, pipelines, subshells, groups,
 * quoting, every kind of substitution, redirections and heredocs. It does not run anything; it
 * finds every command that would run and every file a redirection writes.
 */
class Parser {
  pos = 0
  readonly commands: ShellCommand[] = []
  /** Variables `for` and `select` loops assign, as `NAME=` words. */
  readonly loopVariables: ShellWord[] = []
  /** Text bash evaluates as arithmetic: `$((…))`, `((…))`, `$[…]`, subscripts and substring offsets. */
  readonly arithmetic: ArithmeticUse[] = []
  /** `${NAME:=value}` and `${NAME=value}` assign NAME: recorded as `NAME=value` words. */
  readonly expansionAssignments: ShellWord[] = []
  private pendingHeredocs: PendingHeredoc[] = []
  private cuts: Cut[] = []

  constructor(
    private readonly src: string,
    private readonly backtickEnd = false
  ) {}

  parseAll(): void {
    this.parseList('top', '')
    if (this.pos < this.src.length) throw new ShellSyntaxError(`unexpected '${this.src[this.pos]}' at ${this.pos}`)
  }

  /** Parse commands until EOF or the closing character (`)` or `}`); returns at the closer. */
  private parseList(origin: CommandOrigin, closer: ')' | '}' | 'esac' | ''): void {
    let pipedInput = false
    // After `&&`, `||` or `|` a command must follow (newlines may come first): `ls &&` does not parse.
    // Any operator needs a command before it (`&& ls`, `ls; ; ls` do not parse).
    let needCommand: string | undefined = 'the start'
    const operator = (op: string): void => {
      if (needCommand)
        throw new ShellSyntaxError(`'${op}' follows ${needCommand === 'the start' ? 'nothing' : `'${needCommand}'`}`)
      needCommand = op
    }
    const continues = (): boolean => needCommand === '&&' || needCommand === '||' || needCommand === '|'
    for (;;) {
      this.skipBlanks()
      const c = this.src[this.pos]
      const closing =
        this.pos >= this.src.length ||
        (this.backtickEnd && c === '`') ||
        (closer === ')' && c === ')') ||
        (closer === '}' && c === '}' && this.atWordBoundaryAfter(this.pos + 1)) ||
        (closer === 'esac' &&
          (this.src.startsWith(';;', this.pos) || this.src.startsWith(';&', this.pos) || this.atKeyword('esac')))
      if (closing) {
        // `;` and `&` end a command and need none after them; `&&`, `||` and `|` do.
        if (continues()) throw new ShellSyntaxError(`'${needCommand}' has no command after it`)
        if (this.pos >= this.src.length && closer) throw new ShellSyntaxError(`missing '${closer}'`)
        return
      }
      if (isNewline(c)) {
        this.pos++
        this.readPendingHeredocs()
        if (!continues()) {
          needCommand = 'the start'
          pipedInput = false
        }
        continue
      }
      if (c === '#') {
        while (this.pos < this.src.length && !isNewline(this.src[this.pos])) this.pos++
        continue
      }
      if (c === ';') {
        if (this.src.startsWith(';;', this.pos)) throw new ShellSyntaxError(`unexpected ';;' at ${this.pos}`)
        operator(';')
        this.pos++
        pipedInput = false
        continue
      }
      if (c === '&') {
        const op = this.src.startsWith('&&', this.pos) ? '&&' : '&'
        operator(op)
        this.pos += op.length
        pipedInput = false
        continue
      }
      if (c === '|') {
        if (this.src.startsWith('||', this.pos)) {
          operator('||')
          this.pos += 2
          pipedInput = false
        } else {
          operator('|')
          this.pos += this.src.startsWith('|&', this.pos) ? 2 : 1
          pipedInput = true
        }
        continue
      }
      needCommand = undefined
      if (c === ')') throw new ShellSyntaxError(`unexpected ')' at ${this.pos}`)
      if (c === '}' && this.atWordBoundaryAfter(this.pos + 1))
        throw new ShellSyntaxError(`unexpected '}' at ${this.pos}`)
      if (c === '(' && this.src[this.pos + 1] === '(') {
        this.readArithmeticCommand(origin, pipedInput)
        pipedInput = false
        continue
      }
      if (c === '(') {
        this.pos++
        this.parseList(origin, ')')
        this.pos++
        this.readTrailingRedirects(origin, pipedInput)
        pipedInput = false
        continue
      }
      if (c === '{' && this.atWordBoundaryAfter(this.pos + 1)) {
        this.pos++
        this.parseList(origin, '}')
        this.pos++
        this.readTrailingRedirects(origin, pipedInput)
        pipedInput = false
        continue
      }
      this.parseSimpleCommand(origin, pipedInput)
      pipedInput = false
    }
  }

  private atWordBoundaryAfter(index: number): boolean {
    return index >= this.src.length || isMeta(this.src[index]) || (this.backtickEnd && this.src[index] === '`')
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.src[this.pos]
      if (isBlank(c)) this.pos++
      else if (c === '\\' && isNewline(this.src[this.pos + 1] ?? ''))
        this.pos += this.src.startsWith('\r\n', this.pos + 1) ? 3 : 2
      else return
    }
  }

  /** `( … ) > file`: redirections after a subshell or group belong to no single command. */
  private readTrailingRedirects(origin: CommandOrigin, pipedInput: boolean): void {
    const redirects: ShellRedirect[] = []
    for (;;) {
      this.skipBlanks()
      const redirect = this.tryRedirect(origin)
      if (!redirect) break
      redirects.push(redirect)
    }
    if (redirects.length > 0)
      this.commands.push({ words: [], assignments: [], redirects, text: '', origin, pipedInput })
  }

  private parseSimpleCommand(origin: CommandOrigin, pipedInput: boolean): void {
    let start = this.pos
    const cutsBefore = this.cuts.length
    // The command itself is listed before the substitutions it contains, as a reader expects.
    const insertAt = this.commands.length
    const words: ShellWord[] = []
    const assignments: ShellWord[] = []
    const redirects: ShellRedirect[] = []
    let dataOnly = false
    // `time -p cmd`: the keyword with options is read as the `time` wrapper, so the options are not the program.
    let timeKeyword: ShellWord | undefined
    // `for NAME in …` / `select NAME in …` assign NAME.
    let expectLoopVariable = false
    let loopVariable: ShellWord | undefined
    let loopItems: ShellWord[] | undefined
    for (;;) {
      this.skipBlanks()
      if (this.pos >= this.src.length) break
      const c = this.src[this.pos]
      if (this.backtickEnd && c === '`') break
      if (c === '#') {
        // A word starting with # begins a comment that runs to the end of the line.
        while (this.pos < this.src.length && !isNewline(this.src[this.pos])) this.pos++
        break
      }
      const redirect = this.tryRedirect(origin)
      if (redirect) {
        redirects.push(redirect)
        continue
      }
      if (isMeta(c)) {
        if (
          c === '(' &&
          words.length === 1 &&
          assignments.length === 0 &&
          redirects.length === 0 &&
          /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 40))
        ) {
          // `name() body`: the body's commands are parts of the line, decided at the definition.
          this.pos = this.src.indexOf(')', this.pos) + 1
          this.readFunctionBody(origin)
          return
        }
        if (c === '(' || c === ')' || c === ';' || c === '&' || c === '|' || isNewline(c)) break
      }
      const word = this.readWord(origin)
      if (timeKeyword && words.length === 0 && !dataOnly && word.value.startsWith('-')) {
        words.push(timeKeyword)
        start = timeKeyword.start
      }
      timeKeyword = undefined
      if (words.length === 0 && !dataOnly && !word.quoted) {
        if (UNSUPPORTED.has(word.value)) throw new ShellSyntaxError(`'${word.value}' blocks are not analysed`)
        if (word.value === 'function' && assignments.length === 0 && redirects.length === 0) {
          this.readFunctionKeyword(origin)
          return
        }
        if (word.value === 'case' && assignments.length === 0 && redirects.length === 0) {
          this.readCase(origin)
          return
        }
        if (RESERVED_PREFIX.has(word.value) || RESERVED_ALONE.has(word.value)) {
          if (word.value === 'time') timeKeyword = word
          start = this.pos
          continue
        }
        if (word.value === 'for' || word.value === 'select' || word.value === 'in') {
          expectLoopVariable = word.value !== 'in'
          dataOnly = true
          start = this.pos
          continue
        }
        if (word.value === '[[') {
          words.push(word)
          this.readDoubleBracket(words, origin)
          continue
        }
      }
      if (words.length === 0 && !dataOnly && NAME_ASSIGN.test(word.raw)) {
        assignments.push(word)
        continue
      }
      if (dataOnly && loopVariable && !expectLoopVariable) {
        if (loopItems) loopItems.push(word)
        else if (word.raw === 'in') loopItems = []
      }
      if (dataOnly && expectLoopVariable && /^[A-Za-z_][A-Za-z0-9_]*$/.test(word.raw))
        loopVariable = { ...word, raw: `${word.raw}=`, value: `${word.value}=` }
      expectLoopVariable = false
      if (!dataOnly) words.push(word)
    }
    // `for PATH in /tmp/evil; do ls; done` assigns PATH each item; `for x; do` assigns it each of "$@".
    if (loopVariable) {
      const variable = loopVariable
      if (!loopItems)
        this.loopVariables.push({ ...variable, raw: `${variable.raw}$@`, value: `${variable.value}$@`, expands: true })
      else if (loopItems.length === 0) this.loopVariables.push(variable)
      else
        for (const item of loopItems)
          this.loopVariables.push({
            ...item,
            raw: `${variable.raw}${item.raw}`,
            value: `${variable.value}${item.value}`
          })
    }
    if (words.length === 0 && assignments.length === 0 && redirects.length === 0) return
    this.commands.splice(insertAt, 0, {
      words,
      assignments,
      redirects,
      text: this.textWithout(start, this.pos, cutsBefore),
      origin,
      pipedInput
    })
  }

  /** At a reserved word (`esac`) that ends at a word boundary. */
  private atKeyword(word: string): boolean {
    return this.src.startsWith(word, this.pos) && this.atWordBoundaryAfter(this.pos + word.length)
  }

  private skipBlanksAndNewlines(): void {
    for (;;) {
      this.skipBlanks()
      const c = this.src[this.pos]
      if (c === undefined) return
      if (isNewline(c)) {
        this.pos++
        this.readPendingHeredocs()
      } else if (c === '#') {
        while (this.pos < this.src.length && !isNewline(this.src[this.pos])) this.pos++
      } else return
    }
  }

  /** `function name [()] body`. */
  private readFunctionKeyword(origin: CommandOrigin): void {
    this.skipBlanks()
    const name = this.readWord(origin)
    if (!name.value) throw new ShellSyntaxError('function without a name')
    this.skipBlanks()
    if (/^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 40))) this.pos = this.src.indexOf(')', this.pos) + 1
    this.readFunctionBody(origin)
  }

  /** A function body is a group or a subshell; its commands are analysed like any others. */
  private readFunctionBody(origin: CommandOrigin): void {
    this.skipBlanksAndNewlines()
    const c = this.src[this.pos]
    if (c === '{' && this.atWordBoundaryAfter(this.pos + 1)) {
      this.pos++
      this.parseList(origin, '}')
    } else if (c === '(') {
      this.pos++
      this.parseList(origin, ')')
    } else if (COMPOUND_BODY.some((keyword) => this.atKeyword(keyword))) {
      // `f() if …; fi`: the compound is read by the list that follows, like any other command.
      return
    } else throw new ShellSyntaxError('a function body that is not a compound command is not analysed')
    this.pos++
    this.readTrailingRedirects(origin, false)
  }

  /** `case word in pattern) list ;; … esac`: the word, the patterns' substitutions and every arm are read. */
  private readCase(origin: CommandOrigin): void {
    this.skipBlanks()
    const subject = this.readWord(origin)
    if (!subject.raw) throw new ShellSyntaxError("'case' without a word")
    this.skipBlanksAndNewlines()
    if (!this.atKeyword('in')) throw new ShellSyntaxError("'case' without 'in'")
    this.pos += 2
    for (;;) {
      this.skipBlanksAndNewlines()
      if (this.pos >= this.src.length) throw new ShellSyntaxError("missing 'esac'")
      if (this.atKeyword('esac')) {
        this.pos += 4
        this.readTrailingRedirects(origin, false)
        return
      }
      if (this.src[this.pos] === '(') this.pos++
      for (;;) {
        this.skipBlanks()
        if (this.src[this.pos] === ')') break
        if (this.pos >= this.src.length || (isMeta(this.src[this.pos]) && this.src[this.pos] !== '|'))
          throw new ShellSyntaxError("a 'case' pattern without ')'")
        if (this.src[this.pos] === '|') this.pos++
        else this.readWord(origin)
      }
      this.pos++
      this.parseList(origin, 'esac')
      if (this.src.startsWith(';;&', this.pos)) this.pos += 3
      else if (this.src.startsWith(';;', this.pos) || this.src.startsWith(';&', this.pos)) this.pos += 2
    }
  }

  /** `[[ … ]]` holds `&&`, `<`, `(` as test operators, not shell operators. */
  private readDoubleBracket(words: ShellWord[], origin: CommandOrigin): void {
    for (;;) {
      this.skipBlanks()
      if (this.pos >= this.src.length) throw new ShellSyntaxError("missing ']]'")
      const c = this.src[this.pos]
      if (isNewline(c)) throw new ShellSyntaxError("missing ']]'")
      if (isMeta(c)) {
        const op = /^(&&|\|\||[<>()!|])/.exec(this.src.slice(this.pos, this.pos + 2))?.[0] ?? c
        words.push({
          raw: op,
          value: op,
          start: this.pos,
          end: this.pos + op.length,
          quoted: false,
          expands: false,
          glob: false
        })
        this.pos += op.length
        continue
      }
      const word = this.readWord(origin)
      words.push(word)
      if (word.raw === ']]') return
    }
  }

  private textWithout(start: number, end: number, fromCut: number): string {
    let text = ''
    let at = start
    const cuts = this.cuts.slice(fromCut).filter((cut) => cut.start >= start && cut.end <= end)
    cuts.sort((a, b) => a.start - b.start)
    for (const cut of cuts) {
      if (cut.start < at) continue
      text += this.src.slice(at, cut.start)
      at = cut.end
    }
    text += this.src.slice(at, end)
    return text.replace(/[ \t]{2,}/g, (run, offset: number) => (offset === 0 ? '' : ' ')).trim()
  }

  private tryRedirect(origin: CommandOrigin): ShellRedirect | undefined {
    const first = this.src.charCodeAt(this.pos)
    // Fast exit: a redirection starts with <, >, &> or a file-descriptor digit.
    if (first !== 60 && first !== 62 && first !== 38 && (first < 48 || first > 57)) return undefined
    const match = /^(\d*)(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>(?!\()|<(?!\())/.exec(
      this.src.slice(this.pos, this.pos + 8)
    )
    if (!match) return undefined
    const op = match[2]
    this.pos += match[0].length
    this.skipBlanks()
    if (op === '>&' || op === '<&') {
      const dup = /^(\d+-?|-)(?=$|[\s;&|<>()])/.exec(this.src.slice(this.pos, this.pos + 12))
      if (dup) {
        this.pos += dup[0].length
        return { op: op + dup[0], kind: 'dup' }
      }
    }
    if (
      this.pos >= this.src.length ||
      (isMeta(this.src[this.pos]) && this.src[this.pos] !== '<' && this.src[this.pos] !== '>')
    )
      throw new ShellSyntaxError(`redirection '${op}' has no target`)
    const target = this.readWord(origin)
    if (op === '<<' || op === '<<-') {
      const redirect: ShellRedirect = { op, kind: 'heredoc', target, body: '' }
      this.pendingHeredocs.push({
        redirect,
        delimiter: target.value,
        stripTabs: op === '<<-',
        expands: !target.quoted,
        origin
      })
      return redirect
    }
    if (op === '<<<') return { op, kind: 'herestring', target }
    if (op === '<' || op === '<&') return { op, kind: 'read', target }
    // `<>` opens the file for reading and writing: a write.
    return { op, kind: 'write', target }
  }

  /** Heredoc bodies follow the line that opened them; unquoted ones still run `$(…)` inside. */
  private readPendingHeredocs(): void {
    const pending = this.pendingHeredocs
    this.pendingHeredocs = []
    for (const heredoc of pending) {
      for (;;) {
        if (this.pos >= this.src.length) throw new ShellSyntaxError(`heredoc '${heredoc.delimiter}' is not closed`)
        let lineEnd = this.src.indexOf('\n', this.pos)
        if (lineEnd < 0) lineEnd = this.src.length
        let line = this.src.slice(this.pos, lineEnd).replace(/\r$/, '')
        if (heredoc.stripTabs) line = line.replace(/^\t+/, '')
        if (line === heredoc.delimiter) {
          this.pos = Math.min(lineEnd + 1, this.src.length)
          break
        }
        heredoc.redirect.body += `${line}\n`
        if (heredoc.expands) this.scanHeredocLine(lineEnd)
        this.pos = Math.min(lineEnd + 1, this.src.length)
      }
    }
  }

  private scanHeredocLine(lineEnd: number): void {
    while (this.pos < lineEnd) {
      const c = this.src[this.pos]
      if (c === '\\') this.pos += 2
      else if (c === '$' || c === '`') this.readDollarOrBacktick('heredoc-substitution', { value: '' })
      else this.pos++
    }
  }

  private readWord(_origin: CommandOrigin): ShellWord {
    const start = this.pos
    const acc = { value: '', quoted: false, expands: false, glob: false }
    if (
      (this.src[this.pos] === '<' || this.src[this.pos] === '>' || this.src[this.pos] === '=') &&
      this.src[this.pos + 1] === '('
    ) {
      this.readProcessSubstitution()
      acc.value += this.src.slice(start, this.pos)
      acc.expands = true
    }
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]
      if (this.backtickEnd && c === '`') break
      if (isMeta(c)) {
        if (c === '(' && this.pos > start && this.wordTakesParens(start)) {
          const parenStart = this.pos
          this.skipBalancedParens()
          acc.value += this.src.slice(parenStart, this.pos)
          continue
        }
        break
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1]
        if (next === undefined) {
          this.pos++
          break
        }
        if (isNewline(next)) {
          this.pos += this.src.startsWith('\r\n', this.pos + 1) ? 3 : 2
          continue
        }
        acc.value += next
        acc.quoted = true
        this.pos += 2
        continue
      }
      if (c === "'") {
        const close = this.src.indexOf("'", this.pos + 1)
        if (close < 0) throw new ShellSyntaxError('unterminated single quote')
        acc.value += this.src.slice(this.pos + 1, close)
        acc.quoted = true
        this.pos = close + 1
        continue
      }
      if (c === '"') {
        this.readDoubleQuoted(acc)
        continue
      }
      if (c === '$' && this.src[this.pos + 1] === "'") {
        this.readAnsiC(acc)
        continue
      }
      if (c === '$' && this.src[this.pos + 1] === '"') {
        // `$"…"` is a translatable string: a double-quoted one once the `$` is gone.
        this.pos++
        this.readDoubleQuoted(acc)
        continue
      }
      if (c === '$' || c === '`') {
        this.readDollarOrBacktick('command-substitution', acc)
        continue
      }
      if (c === '*' || c === '?' || c === '[') acc.glob = true
      // Copy a run of ordinary characters at once.
      let end = this.pos + 1
      while (end < this.src.length && PLAIN.test(this.src[end])) end++
      acc.value += this.src.slice(this.pos, end)
      this.pos = end
    }
    return {
      raw: this.src.slice(start, this.pos),
      value: acc.value,
      start,
      end: this.pos,
      quoted: acc.quoted,
      expands: acc.expands,
      glob: acc.glob
    }
  }

  /** `files=(a b)` arrays and bash/zsh extglobs `*(…)`, `@(…)` keep their parentheses. */
  private wordTakesParens(start: number): boolean {
    const before = this.src.slice(start, this.pos)
    return /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(before) || /[*?+@!]$/.test(before)
  }

  private skipBalancedParens(): void {
    let depth = 0
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]
      if (c === '\\') this.pos++
      else if (c === "'" || c === '"') {
        const close = this.src.indexOf(c, this.pos + 1)
        if (close < 0) throw new ShellSyntaxError('unterminated quote')
        this.pos = close
      } else if (c === '(') depth++
      else if (c === ')' && --depth === 0) {
        this.pos++
        return
      }
      this.pos++
    }
    throw new ShellSyntaxError("missing ')'")
  }

  private readDoubleQuoted(acc: { value: string; quoted: boolean; expands: boolean }): void {
    acc.quoted = true
    this.pos++
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]
      if (c === '"') {
        this.pos++
        return
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1] ?? ''
        if (next === '$' || next === '`' || next === '"' || next === '\\') acc.value += next
        else if (!isNewline(next)) acc.value += c + next
        this.pos += 2
        continue
      }
      if (c === '$' || c === '`') {
        this.readDollarOrBacktick('command-substitution', acc)
        continue
      }
      acc.value += c
      this.pos++
    }
    throw new ShellSyntaxError('unterminated double quote')
  }

  /** `$'…'`: decoded as bash does, so `$'\x72m'` is seen as `rm`. */
  private readAnsiC(acc: { value: string; quoted: boolean }): void {
    let i = this.pos + 2
    let value = ''
    while (i < this.src.length && this.src[i] !== "'") {
      if (this.src[i] !== '\\') {
        value += this.src[i++]
        continue
      }
      const decoded = decodeAnsiEscape(this.src, i + 1)
      value += decoded.text
      i = decoded.next
    }
    if (i >= this.src.length) throw new ShellSyntaxError("unterminated $'…' quote")
    acc.value += value
    acc.quoted = true
    this.pos = i + 1
  }

  /** At `$` or a backtick: variables, `${…}`, `$((…))`, `$(…)`, `` `…` ``. */
  private readDollarOrBacktick(origin: CommandOrigin, acc: { value: string; expands?: boolean }): void {
    const start = this.pos
    const c = this.src[this.pos]
    if (c === '`') {
      this.readBacktick(origin)
    } else if (this.src.startsWith('$((', this.pos)) {
      this.readArithmetic()
    } else if (this.src[this.pos + 1] === '(') {
      this.pos += 2
      this.parseNested(origin, ')')
    } else if (this.src[this.pos + 1] === '{') {
      this.readParameterExpansion()
    } else if (this.src[this.pos + 1] === '[') {
      this.readOldArithmetic()
    } else {
      const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9?!#$*@-])/.exec(this.src.slice(this.pos, this.pos + 64))
      if (!name) {
        acc.value += '$'
        this.pos++
        return
      }
      this.pos += name[0].length
    }
    acc.value += this.src.slice(start, this.pos)
    acc.expands = true
  }

  private parseNested(origin: CommandOrigin, closer: ')'): void {
    const cutStart =
      this.pos -
      (this.src[this.pos - 2] === '$' ||
      this.src[this.pos - 2] === '<' ||
      this.src[this.pos - 2] === '>' ||
      this.src[this.pos - 2] === '='
        ? 2
        : 1)
    const saved = this.pendingHeredocs
    this.pendingHeredocs = []
    this.parseList(origin, closer)
    this.pendingHeredocs = saved
    this.pos++
    this.cuts.push({ start: cutStart, end: this.pos })
  }

  private readProcessSubstitution(): void {
    this.pos += 2
    this.parseNested('process-substitution', ')')
  }

  private readBacktick(origin: CommandOrigin): void {
    const start = this.pos
    let i = this.pos + 1
    let inner = ''
    while (i < this.src.length && this.src[i] !== '`') {
      if (this.src[i] === '\\' && (this.src[i + 1] === '`' || this.src[i + 1] === '\\' || this.src[i + 1] === '$')) {
        inner += this.src[i + 1]
        i += 2
      } else inner += this.src[i++]
    }
    if (i >= this.src.length) throw new ShellSyntaxError('unterminated backtick')
    const nested = new Parser(inner)
    nested.parseList(origin, '')
    if (nested.pos < inner.length) throw new ShellSyntaxError('unexpected text in backtick substitution')
    for (const command of nested.commands) this.commands.push({ ...command, origin })
    this.loopVariables.push(...nested.loopVariables)
    this.arithmetic.push(...nested.arithmetic)
    this.expansionAssignments.push(...nested.expansionAssignments)
    this.pos = i + 1
    this.cuts.push({ start, end: this.pos })
  }

  /** `((…))` as a command: an arithmetic evaluation (`for ((…))` too). */
  private readArithmeticCommand(origin: CommandOrigin, pipedInput: boolean): void {
    const start = this.pos
    this.pos--
    this.readArithmetic('arithmetic command')
    this.commands.push({
      words: [],
      assignments: [],
      redirects: [],
      text: this.src.slice(start, this.pos),
      origin,
      pipedInput
    })
    this.readTrailingRedirects(origin, false)
  }

  private readArithmetic(kind: ArithmeticUse['kind'] = 'arithmetic expansion'): void {
    this.pos += 3
    const from = this.pos
    let depth = 2
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]
      if (c === '$' || c === '`') {
        if (this.src[this.pos + 1] === '(' && this.src[this.pos + 2] !== '(') {
          this.pos += 2
          const savedCuts = this.cuts.length
          this.parseList('command-substitution', ')')
          this.cuts.length = savedCuts
          this.pos++
          continue
        }
        if (c === '`') {
          this.readBacktick('command-substitution')
          this.cuts.pop()
          continue
        }
      }
      if (c === '(') depth++
      else if (c === ')') {
        depth--
        if (depth === 0) {
          this.arithmetic.push({ text: this.src.slice(from, this.pos - 1), kind })
          this.pos++
          return
        }
      }
      this.pos++
    }
    throw new ShellSyntaxError("missing '))'")
  }

  /** `$[…]`: bash's old arithmetic expansion. */
  private readOldArithmetic(): void {
    const from = this.pos + 2
    let depth = 0
    for (this.pos += 1; this.pos < this.src.length; this.pos++) {
      const c = this.src[this.pos]
      if (c === '[') depth++
      else if (c === ']' && --depth === 0) {
        this.arithmetic.push({ text: this.src.slice(from, this.pos), kind: 'arithmetic expansion' })
        this.pos++
        return
      }
    }
    throw new ShellSyntaxError("missing ']' of '$['")
  }

  /** `${…}` may nest, quote, and hide `$(…)` in a default value: all of it is scanned. */
  private readParameterExpansion(): void {
    const from = this.pos + 2
    this.pos += 2
    let depth = 1
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]
      if (c === '\\') {
        this.pos += 2
        continue
      }
      if (c === "'") {
        const close = this.src.indexOf("'", this.pos + 1)
        if (close < 0) throw new ShellSyntaxError('unterminated single quote')
        this.pos = close + 1
        continue
      }
      if (c === '"') {
        this.readDoubleQuoted({ value: '', quoted: true, expands: false })
        continue
      }
      if ((c === '$' && (this.src[this.pos + 1] === '(' || this.src[this.pos + 1] === '{')) || c === '`') {
        const savedCuts = this.cuts.length
        this.readDollarOrBacktick('command-substitution', { value: '' })
        this.cuts.length = savedCuts
        continue
      }
      if (c === '{') depth++
      else if (c === '}' && --depth === 0) {
        const body = this.src.slice(from, this.pos)
        this.arithmetic.push(...parameterArithmetic(body))
        const assigned = /^([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?):?=([\s\S]*)$/.exec(body)
        if (assigned) {
          const raw = `${assigned[1]}=${assigned[2]}`
          this.expansionAssignments.push({
            raw,
            value: raw,
            start: from,
            end: this.pos,
            quoted: false,
            expands: /[$`]/.test(assigned[2]),
            glob: false
          })
        }
        this.pos++
        return
      }
      this.pos++
    }
    throw new ShellSyntaxError("missing '}'")
  }
}

/**
 * The arithmetic inside `${…}`: a subscript (`${a[i]}`, `${#a[i]}`) and substring offsets
 * (`${v:off:len}`, `${a[@]:off}`), which bash evaluates, recursively through variables.
 * `${v:-x}`, `${v:=x}`, `${v:+x}`, `${v:?x}` are defaults, not offsets.
 */
function parameterArithmetic(body: string): ArithmeticUse[] {
  const found: ArithmeticUse[] = []
  const head = /^[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(body)
  if (!head) return found
  let at = head[0].length
  if (body[at] === '[') {
    let depth = 0
    let end = at
    for (; end < body.length; end++) {
      if (body[end] === '[') depth++
      else if (body[end] === ']' && --depth === 0) break
    }
    const subscript = body.slice(at + 1, end)
    if (subscript !== '@' && subscript !== '*') found.push({ text: subscript, kind: 'subscript' })
    at = end + 1
  }
  if (body[at] === ':' && !/[-=+?]/.test(body[at + 1] ?? '')) {
    for (const operand of body.slice(at + 1).split(':')) found.push({ text: operand, kind: 'substring offset' })
  }
  return found
}

/** Parse a command line into every simple command it would run. Never throws. */
export function parseShell(command: string): ShellParse {
  if (CONTROL_CHARACTER.test(command))
    return { ok: false, error: 'the command holds a NUL or another control character', invalid: true, commands: [] }
  const parser = new Parser(command)
  try {
    parser.parseAll()
    return {
      ok: true,
      commands: parser.commands,
      loopVariables: [...parser.loopVariables, ...parser.expansionAssignments],
      arithmetic: parser.arithmetic
    }
  } catch (error) {
    if (error instanceof ShellSyntaxError)
      return {
        ok: false,
        error: error.message,
        commands: parser.commands,
        loopVariables: [...parser.loopVariables, ...parser.expansionAssignments],
        arithmetic: parser.arithmetic
      }
    throw error
  }
}
