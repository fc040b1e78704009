/**
 * The app's own slash commands: `/new` and `/mode` act in the composer, `/condense`, `/checkpoint`
 * and `/cost` through their requests on the open task. A prompt file with one of these names is not
 * offered (a project cannot take over `/new`).
 */
export const BUILTIN_COMMANDS = [
  { name: 'new', description: 'Start a new task', argumentHint: '' },
  { name: 'mode', description: 'Switch to another mode', argumentHint: '<slug>' },
  { name: 'condense', description: "Summarise the task's earlier conversation now, to free context", argumentHint: '' },
  { name: 'checkpoint', description: 'Save a checkpoint of the files now, to restore later', argumentHint: '[label]' },
  { name: 'cost', description: "Show the task's tokens and cost per model in the chat", argumentHint: '' }
] as const
export type BuiltinCommandName = (typeof BUILTIN_COMMANDS)[number]['name']

export const isBuiltinCommand = (name: string): name is BuiltinCommandName =>
  BUILTIN_COMMANDS.some((command) => command.name === name)

/** A command's name: the file name without `.md`; no slashes, spaces or leading dot. */
export const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

/** `/name rest of the line` → name and arguments; null when the text is not a command. */
export function parseSlashCommand(text: string): { name: string; args: string } | null {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trimStart())
  if (!match?.[1] || !COMMAND_NAME.test(match[1])) return null
  return { name: match[1], args: (match[2] ?? '').trim() }
}

/** Claude Code's and Roo's convention: `$ARGUMENTS` takes the text after the command; without it the text follows the prompt. */
export function expandPrompt(body: string, args: string): string {
  if (body.includes('$ARGUMENTS')) return body.split('$ARGUMENTS').join(args)
  return args ? `${body}\n\n${args}` : body
}
