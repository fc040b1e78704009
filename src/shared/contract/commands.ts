import { z } from 'zod'
import { request } from './define'

export const CommandView = z.object({
  name: z.string(),
  description: z.string(),
  argumentHint: z.string().optional(),
  /** builtin: the app's own; project: `.modus/commands`; roo: `.roo/commands`; global: the app data dir. */
  source: z.enum(['builtin', 'project', 'roo', 'global'])
})
export type CommandView = z.infer<typeof CommandView>

export const CommandsView = z.object({
  commands: z.array(CommandView),
  /** Command files found but not offered, with why (a link out of its folder, too big, a taken name). */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() }))
})
export type CommandsView = z.infer<typeof CommandsView>

export const commandsRequests = {
  /** The slash commands for the open folder: built-ins, then the project's and the user's prompt files. */
  'commands:list': request(z.object({}).strict(), CommandsView),
  /** A prompt command's text with `$ARGUMENTS` filled in; the caller sends it as a message. */
  'commands:expand': request(
    z.object({ name: z.string().min(1).max(64), args: z.string().max(100_000) }).strict(),
    z.object({ text: z.string() })
  )
}
