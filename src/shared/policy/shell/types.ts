/** One shell word: its source text and its value once quotes and escapes are removed. */
export interface ShellWord {
  raw: string
  /** Quotes and escapes removed; expansions are kept as their source text. */
  value: string
  start: number
  end: number
  quoted: boolean
  /** Contains `$var`, `${…}`, `$((…))`, `$(…)`, backticks or a process substitution: unknown until run. */
  expands: boolean
  /** Contains an unquoted glob character. */
  glob: boolean
}

export type RedirectKind = 'write' | 'read' | 'dup' | 'heredoc' | 'herestring'

export interface ShellRedirect {
  op: string
  kind: RedirectKind
  target?: ShellWord
  /** A heredoc's body, as the command reads it (a shell reading it runs it). */
  body?: string
}

export type CommandOrigin = 'top' | 'command-substitution' | 'process-substitution' | 'heredoc-substitution'

/** A simple command: what actually runs. Nested substitutions are commands of their own. */
export interface ShellCommand {
  /** argv, assignments excluded. */
  words: ShellWord[]
  assignments: ShellWord[]
  redirects: ShellRedirect[]
  /** Source text of the command, substitutions cut out (as Roo's splitter shows it). */
  text: string
  origin: CommandOrigin
  /** Output of a previous pipeline stage flows into this command. */
  pipedInput: boolean
}

/** Text bash evaluates as arithmetic, where variables are read recursively and subscripts run `$(…)`. */
export interface ArithmeticUse {
  text: string
  kind: 'arithmetic expansion' | 'arithmetic command' | 'subscript' | 'substring offset'
}

export type ShellParse =
  /** `loopVariables`: what `for NAME in …` and `select NAME in …` assign, one `NAME=item` word per item, and `${NAME:=value}` defaults. */
  | { ok: true; commands: ShellCommand[]; loopVariables?: ShellWord[]; arithmetic?: ArithmeticUse[] }
  /** `invalid`: input no shell should be given (control characters): refused, not asked. */
  | {
      ok: false
      error: string
      invalid?: boolean
      commands: ShellCommand[]
      loopVariables?: ShellWord[]
      arithmetic?: ArithmeticUse[]
    }
