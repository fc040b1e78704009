import { useEffect, useState, type KeyboardEvent } from 'react'
import type { CommandView } from '../../../../../shared/contract/commands'
import { parseSlashCommand } from '../../../../../shared/commands/builtins'
import { unwrap } from '../../../client/unwrap'
import type { ModusClient } from '../../../../../shared/contract'

export interface SlashCommands {
  /** The menu is open: the field holds `/` and a name being typed, and something matches. */
  open: boolean
  matches: CommandView[]
  active: number
  setActive(index: number): void
  /** Keys the menu takes (arrows, Enter, Tab, Escape); true when it took the key. */
  onKeyDown(event: KeyboardEvent): boolean
  choose(command: CommandView): void
  /** The command a message invokes, when its first word names one. */
  invoked(text: string): Promise<{ command: CommandView; args: string } | null>
}

const readCommands = async (client: ModusClient): Promise<CommandView[]> =>
  unwrap(await client.request('commands:list', {})).commands

/** The `/` menu of the composer: the built-ins and the prompt files of the project and the user. */
export function useSlashCommands(client: ModusClient, text: string, setText: (text: string) => void): SlashCommands {
  const [commands, setCommands] = useState<CommandView[]>([])
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<string | null>(null)
  const typing = /^\/[^\s]*$/.test(text)
  const wantsList = text.startsWith('/')

  // The list is read again each time a `/` starts the field: command files may have changed.
  useEffect(() => {
    if (!wantsList) return
    let current = true
    readCommands(client)
      .then((listed) => current && setCommands(listed))
      .catch(() => undefined)
    return () => {
      current = false
    }
  }, [client, wantsList])

  const query = typing ? text.slice(1).toLowerCase() : ''
  const matches = typing ? commands.filter((command) => command.name.toLowerCase().startsWith(query)) : []
  const open = typing && dismissed !== text && matches.length > 0
  const index = Math.min(active, Math.max(matches.length - 1, 0))

  const choose = (command: CommandView) => {
    setText(`/${command.name} `)
    setActive(0)
  }

  return {
    open,
    matches,
    active: index,
    setActive,
    choose,
    onKeyDown(event) {
      if (!open) return false
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1
        setActive((index + step + matches.length) % matches.length)
      } else if (event.key === 'Enter' || event.key === 'Tab') {
        const command = matches[index]
        if (command) choose(command)
      } else if (event.key === 'Escape') {
        setDismissed(text)
      } else return false
      event.preventDefault()
      return true
    },
    async invoked(message) {
      const parsed = parseSlashCommand(message)
      if (!parsed) return null
      const named = (list: CommandView[]) => list.find((c) => c.name === parsed.name)
      // A `/` typed and sent at once can beat the list's answer, and a command file may be newer than
      // the list: ask again before a command's name goes to the model as text.
      let command = named(commands)
      if (!command) {
        const listed = await readCommands(client)
        setCommands(listed)
        command = named(listed)
      }
      return command ? { command, args: parsed.args } : null
    }
  }
}
