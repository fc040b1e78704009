import type { ReactNode } from 'react'
import type { SlashCommands } from './use-slash-commands'

export const SLASH_MENU_ID = 'slash-command-menu'
export const slashOptionId = (name: string): string => `slash-command-${name}`

/**
 * What the message field says while the menu is open. A textarea may not take the combobox role
 * (ARIA in HTML), so it stays a textbox with the list autocomplete pattern: `aria-autocomplete`,
 * `aria-controls` to the listbox and `aria-activedescendant` on the highlighted option.
 */
export const slashComboboxProps = (slash: SlashCommands) =>
  slash.open && slash.matches[slash.active]
    ? {
        'aria-autocomplete': 'list' as const,
        'aria-controls': SLASH_MENU_ID,
        'aria-activedescendant': slashOptionId(slash.matches[slash.active].name)
      }
    : {}

const SOURCE_LABEL = { builtin: 'built-in', project: 'project', roo: 'Roo', global: 'yours' } as const

/**
 * The listbox under the field; focus stays in the field (aria-activedescendant), a click chooses. A
 * built-in that cannot run now says why beside its description (and again if run).
 */
export function SlashMenu({
  slash,
  unavailable
}: {
  slash: SlashCommands
  unavailable: (name: string) => string | null
}): ReactNode {
  if (!slash.open) return null
  return (
    <ul className="slash-menu" role="listbox" id={SLASH_MENU_ID} aria-label="Commands">
      {slash.matches.map((command, index) => (
        <li
          key={command.name}
          id={slashOptionId(command.name)}
          role="option"
          aria-selected={index === slash.active}
          className={index === slash.active ? 'active' : undefined}
          onMouseDown={(event) => {
            event.preventDefault() // keep focus in the field
            slash.choose(command)
          }}
          onMouseEnter={() => slash.setActive(index)}
        >
          <span className="slash-name">
            /{command.name}
            {command.argumentHint ? ` ${command.argumentHint}` : ''}
          </span>
          <span className="slash-description">
            {command.description}
            {command.source === 'builtin' && unavailable(command.name) && (
              <span className="slash-unavailable"> — {unavailable(command.name)}</span>
            )}
          </span>
          <span className="slash-source">{SOURCE_LABEL[command.source]}</span>
        </li>
      ))}
    </ul>
  )
}
