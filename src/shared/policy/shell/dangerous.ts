/**
 * Shell expansions that run code although they look like data (Roo's list, our own patterns):
 * bash `${x@P}` prompt expansion and friends, escapes hidden in a `${x=…}` default, indirect
 * `${!x}`, here-strings fed by a substitution, zsh `=(…)` and `*(e:…:)` glob qualifiers.
 */
const DANGEROUS_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\$\{[^}]*@[PQEAa]/, 'a ${…@P}-style transformation can run code'],
  [
    /\$\{[A-Za-z_][A-Za-z0-9_]*:?[=+?-][^}]*\\(?:[0-7]{3}|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4})/,
    'escape sequences in a ${…} default can hide a command'
  ],
  [/\$\{!/, 'indirect expansion ${!…}'],
  [/<<<\s*(?:\$\(|`)/, 'a here-string fed by a command substitution'],
  [/(?:^|[\s;&|(])=\(/, 'zsh =(…) process substitution'],
  [/[*?+@!]\(e:/, 'zsh glob qualifier (e:…) runs code']
]

export function dangerousSubstitution(command: string): string | undefined {
  if (!command.includes('$') && !command.includes('(') && !command.includes('<<<')) return undefined
  for (const [pattern, reason] of DANGEROUS_PATTERNS) if (pattern.test(command)) return reason
  return undefined
}

export const containsDangerousSubstitution = (command: string): boolean => dangerousSubstitution(command) !== undefined
