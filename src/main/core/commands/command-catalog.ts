import { promises as fs } from 'node:fs'
import { basename, join, sep } from 'node:path'
import { BUILTIN_COMMANDS, COMMAND_NAME, expandPrompt, isBuiltinCommand } from '../../../shared/commands/builtins'
import type { CommandView, CommandsView } from '../../../shared/contract/commands'
import { UserFacingError } from '../../../shared/contract/dispatch'

/** A prompt is a message, not a document: past this it is refused, not cut. */
export const MAX_COMMAND_BYTES = 20_000
const MAX_FILES_PER_FOLDER = 100

type PromptSource = Exclude<CommandView['source'], 'builtin'>

interface PromptCommand extends CommandView {
  body: string
}

export interface CommandCatalog {
  list(): Promise<CommandsView>
  /** The prompt of `/name args`; throws a UserFacingError for an unknown name or a built-in. */
  expand(name: string, args: string): Promise<string>
}

/**
 * The slash commands: the built-ins, then the user's prompt files — the project's
 * `.modus/commands/*.md`, Roo's `.roo/commands/*.md`, and the app data dir's `commands/*.md` — the
 * first of a name wins. Project files are prompts, not grants: read without trust, but with the
 * rule files' guards (a file whose real path leaves its folder is not read, nor one over the cap).
 */
export function createCommandCatalog(deps: { dataDir: string; workspace: () => string | null }): CommandCatalog {
  const folders = (): Array<{ dir: string; source: PromptSource; display: string }> => {
    const root = deps.workspace()
    return [
      ...(root
        ? [
            { dir: join(root, '.modus', 'commands'), source: 'project' as const, display: '.modus/commands' },
            { dir: join(root, '.roo', 'commands'), source: 'roo' as const, display: '.roo/commands' }
          ]
        : []),
      { dir: join(deps.dataDir, 'commands'), source: 'global' as const, display: join(deps.dataDir, 'commands') }
    ]
  }

  const load = async (): Promise<{ prompts: PromptCommand[]; skipped: CommandsView['skipped'] }> => {
    const prompts: PromptCommand[] = []
    const skipped: CommandsView['skipped'] = []
    for (const folder of folders()) {
      for (const file of await markdownFiles(folder.dir)) {
        const path = `${folder.display}/${file}`
        const name = basename(file, '.md')
        if (!COMMAND_NAME.test(name)) {
          skipped.push({ path, reason: 'the name is not a command name (letters, digits, . _ -)' })
          continue
        }
        if (isBuiltinCommand(name)) {
          skipped.push({ path, reason: `/${name} is a built-in command` })
          continue
        }
        if (prompts.some((p) => p.name === name)) {
          skipped.push({ path, reason: `/${name} is already defined by an earlier folder` })
          continue
        }
        const read = await readInside(folder.dir, join(folder.dir, file))
        if (typeof read !== 'string') {
          if (read.skip) skipped.push({ path, reason: read.skip })
          continue
        }
        prompts.push({ name, source: folder.source, ...parseCommandFile(read) })
      }
    }
    return { prompts, skipped }
  }

  return {
    async list() {
      const { prompts, skipped } = await load()
      const builtins: CommandView[] = BUILTIN_COMMANDS.map((command) => ({
        name: command.name,
        description: command.description,
        ...(command.argumentHint ? { argumentHint: command.argumentHint } : {}),
        source: 'builtin'
      }))
      return { commands: [...builtins, ...prompts.map(({ body: _body, ...view }) => view)], skipped }
    },
    async expand(name, args) {
      if (isBuiltinCommand(name))
        throw new UserFacingError('builtin_command', `/${name} is a built-in command of the app, not a prompt.`)
      const command = (await load()).prompts.find((p) => p.name === name)
      if (!command) throw new UserFacingError('unknown_command', `No command /${name}: add .modus/commands/${name}.md.`)
      return expandPrompt(command.body, args)
    }
  }
}

/** The `.md` files directly in a folder, sorted; none when it is missing. */
async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.md'))
    .map((entry) => entry.name)
    .sort()
    .slice(0, MAX_FILES_PER_FOLDER)
}

/** The text of a regular file whose real path is inside the real `folder`, under the cap. */
async function readInside(folder: string, path: string): Promise<string | { skip?: string }> {
  const [realFolder, real] = await Promise.all([fs.realpath(folder), fs.realpath(path)].map((p) => p.catch(() => null)))
  if (!realFolder || !real) return {}
  if (!real.startsWith(realFolder + sep)) return { skip: 'links outside its folder' }
  const handle = await fs.open(real, 'r').catch(() => null)
  if (!handle) return {}
  try {
    const stat = await handle.stat()
    if (!stat.isFile()) return {}
    if (stat.size > MAX_COMMAND_BYTES) return { skip: `over the ${MAX_COMMAND_BYTES}-byte limit for a command` }
    const bytes = Buffer.alloc(stat.size)
    await handle.read(bytes, 0, stat.size, 0)
    if (bytes.includes(0)) return { skip: 'not a text file' }
    return bytes.toString('utf8')
  } finally {
    await handle.close()
  }
}

/**
 * Front matter as Claude Code and Roo write it (`description`, `argument-hint`), read line by line;
 * the body is the prompt. Without a description the first line of the body describes it.
 */
export function parseCommandFile(text: string): { description: string; argumentHint?: string; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text)
  const fields: Record<string, string> = {}
  for (const line of (match?.[1] ?? '').split(/\r?\n/)) {
    const field = /^([A-Za-z-]+):\s*(.*)$/.exec(line)
    if (field?.[1]) fields[field[1].toLowerCase()] = (field[2] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2')
  }
  const body = (match ? (match[2] ?? '') : text).trim()
  const description =
    fields.description ||
    body
      .split('\n')[0]
      ?.replace(/^#+\s*/, '')
      .slice(0, 120) ||
    ''
  return { description, ...(fields['argument-hint'] ? { argumentHint: fields['argument-hint'] } : {}), body }
}
