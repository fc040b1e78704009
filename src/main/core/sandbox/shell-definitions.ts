import { basename } from 'node:path'

/**
 * A sandboxed command runs in a fresh `bash -c` / `zsh -c` inside bubblewrap, which knows none of
 * the task shell's functions and aliases. The task shell writes them to a file just before the
 * wrapped command starts, and the inner shell sources it first. The file is bound read-only into
 * its own command's sandbox; its folder is hidden in every sandbox, so one sandboxed command can
 * neither read another's definitions nor plant code in them.
 */
export interface ShellDefinitions {
  /** Runs in the task shell before the wrapped command: writes the definitions file. */
  dump: string
  /** The command as the inner shell runs it: definitions first. */
  command: string
  /** The line that loads the definitions alone (a kept wrap runs it before the command). */
  load: string
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** Null for shells it cannot carry definitions for (pwsh, sh …): the command runs as given. */
export function carryShellDefinitions(
  shell: string | undefined,
  file: string,
  command: string
): ShellDefinitions | null {
  const name = basename(shell ?? 'bash')
  const target = quote(file)
  if (name === 'bash') {
    // shopt -p carries expand_aliases (and extglob, which many function bodies need to parse).
    // bash runs a -c string line by line, so the aliases apply to the command on the next line.
    return {
      dump: `{ shopt -p; alias -p; declare -f; } >| ${target} 2>/dev/null`,
      command: `. ${target} 2>/dev/null\n${command}`,
      load: `. ${target} 2>/dev/null`
    }
  }
  if (name === 'zsh') {
    // zsh parses a whole -c string before running it: the command goes through eval to see the aliases.
    return {
      dump: `{ alias -L; typeset -f; } >| ${target} 2>/dev/null`,
      command: `. ${target} 2>/dev/null\neval ${quote(command)}`,
      load: `. ${target} 2>/dev/null`
    }
  }
  return null
}

// A statement that changes the shell itself: export/alias/…, `. file`, `name=value` alone, `name() {`.
const SETS_SHELL_STATE =
  /(?:^|[;&|(\n]\s*)(?:(?:export|alias|unalias|unset|source|set|shopt|setopt|declare|typeset|function)\s|\.\s|[A-Za-z_]\w*=\S*\s*(?:$|[;&|\n]))|\b[A-Za-z_][\w-]*\s*\(\)\s*\{/

/** Said in the tool result when the command looks like it sets up the shell for later commands. */
export function shellStateNote(command: string): string | null {
  return SETS_SHELL_STATE.test(command)
    ? "It ran in the sandbox's own shell (started with the task shell's functions and aliases): variables, exports, functions, aliases and options it set there are not kept for the next command."
    : null
}
