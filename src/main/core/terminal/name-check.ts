import { randomBytes } from 'node:crypto'
import { accessSync, constants, realpathSync, statSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import type { ShellKind } from './shell-integration'

/**
 * What a command word means in the task shell, asked of that shell just before an auto-approved
 * command runs in it. The shell is long-lived: an earlier command (a sourced script, an activated
 * environment) may have left an alias, a function or a hashed path behind, and the policy only
 * read the text. A name passes when it is a program found on PATH (or hashed to that same file),
 * a builtin or keyword of the shell, or not found at all; anything else asks, showing what the
 * name resolves to.
 */
export interface NameResolution {
  name: string
  /** bash `type -t` / zsh `whence -w`: alias, function, builtin, keyword, file, hashed, none… */
  kind: string
  /** The alias text, the function's definition, or the hashed path. */
  detail: string
}

/** A name the shell resolves to something other than the program of that name. */
export interface NameProblem {
  name: string
  says: string
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/**
 * The probe for bash and zsh. Every word is quoted (`\builtin`) so an alias cannot change the
 * probe itself; fields are cut by a random separator the shell's state cannot know in advance.
 */
export function nameProbe(kind: ShellKind, names: readonly string[]): { script: string; separator: string } | null {
  if (kind === 'pwsh') return null
  const separator = `@@modus-${randomBytes(8).toString('hex')}@@`
  const sep = `\\builtin printf '%s' ${quote(separator)}`
  const lines = [`\\builtin printf '%s' "$PATH"`, sep]
  for (const name of names) {
    const q = quote(name)
    if (kind === 'bash') {
      lines.push(
        `\\builtin printf '%s' ${q}`,
        sep,
        `\\builtin type -t -- ${q} 2>/dev/null`,
        sep,
        `\\builtin alias -- ${q} 2>/dev/null; \\builtin declare -f -- ${q} 2>/dev/null; \\builtin hash -t -- ${q} 2>/dev/null`,
        sep
      )
    } else {
      lines.push(
        `\\builtin printf '%s' ${q}`,
        sep,
        `\\builtin whence -w -- ${q} 2>/dev/null`,
        sep,
        `\\builtin alias -L -- ${q} 2>/dev/null; \\builtin functions -- ${q} 2>/dev/null; \\builtin whence -p -- ${q} 2>/dev/null`,
        sep
      )
    }
  }
  return { script: lines.join('\n'), separator }
}

/** The probe's output: PATH, then name, kind, detail for each name. */
export function parseNameProbe(output: string, separator: string): { path: string; names: NameResolution[] } | null {
  const fields = output.replace(/\r\n/g, '\n').split(separator)
  if (fields.length < 2 || (fields.length - 2) % 3 !== 0) return null
  const names: NameResolution[] = []
  for (let i = 1; i + 3 < fields.length; i += 3) {
    const kind = fields[i + 1].trim().replace(/^.*: /, '')
    names.push({ name: fields[i], kind, detail: fields[i + 2].trim() })
  }
  return { path: fields[0], names }
}

/** bash and zsh builtins and keywords a command word may be (a list of what is known). */
const SHELL_OWN = new Set(
  (
    '. : [ [[ ]] { } ! alias autoload bg bind break builtin caller case cd chdir command compgen complete compopt continue declare dirs disown do done echo ' +
    'elif else emulate enable esac eval exec exit export false fc fg fi for function getopts hash help history if in jobs kill let local logout mapfile ' +
    'noglob popd print printf pushd pwd read readarray readonly return select set setopt shift shopt source suspend test then time times trap true type ' +
    'typeset ulimit umask unalias unfunction unhash unset unsetopt until wait whence where which while zmodload'
  ).split(' ')
)

/** The first executable file named `name` on PATH, as the shell would find it without its hash table. */
export function pathLookup(name: string, path: string, cwd: string): string | null {
  if (name.includes('/')) return null
  for (const dir of path.split(':')) {
    const candidate = join(isAbsolute(dir) ? dir : join(cwd, dir || '.'), name)
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not there or not executable: the next folder.
    }
  }
  return null
}

const sameFile = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return false
  }
}

/** Aliases that only add colour to the same program (Debian's default ~/.bashrc): the program is the one named. */
const COLOUR_ALIAS = /^(?:alias )?([\w.+-]+)='([\w.+-]+) --colou?r(?:=(?:auto|always|never))?'$/

const short = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

/** What each name means that is not the program of that name, or [] when every name is. */
export function nameProblems(resolved: { path: string; names: readonly NameResolution[] }, cwd: string): NameProblem[] {
  const problems: NameProblem[] = []
  for (const { name, kind, detail } of resolved.names) {
    switch (kind) {
      case '':
      case 'none':
        break
      case 'alias': {
        const colour = COLOUR_ALIAS.exec(detail.split('\n')[0] ?? '')
        if (colour && colour[1] === name && colour[2] === name) break
        problems.push({ name, says: `'${name}' is an alias in the task shell: ${short(detail)}` })
        break
      }
      case 'function':
        problems.push({ name, says: `'${name}' is a shell function in the task shell: ${short(detail)}` })
        break
      case 'builtin':
      case 'keyword':
      case 'reserved':
        if (!SHELL_OWN.has(name))
          problems.push({
            name,
            says: `'${name}' is a ${kind} loaded into the task shell, not the program of that name`
          })
        break
      case 'file':
      case 'command':
      case 'hashed': {
        const hashed = detail.split('\n').pop()?.trim() ?? ''
        const found = pathLookup(name, resolved.path, cwd)
        if (name.includes('/') || !hashed) break
        if (!found || !sameFile(hashed, found))
          problems.push({
            name,
            says: `'${name}' is hashed in the task shell to ${hashed}, not ${found ?? 'a program on PATH'}`
          })
        break
      }
      default:
        problems.push({ name, says: `'${name}' resolves to a ${kind} in the task shell` })
    }
  }
  return problems
}

/** Thrown instead of running a command when a name it uses means something else in its shell. */
export class ShellNamesChanged extends Error {
  override name = 'ShellNamesChanged'
  constructor(readonly problems: readonly NameProblem[]) {
    super(problems.map((problem) => problem.says).join('; '))
  }
}
