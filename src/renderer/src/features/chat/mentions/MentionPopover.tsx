import type { ReactNode } from 'react'
import type { MentionCompletion } from './use-mention-completion'

/** The `@` list under the composer's field (the field keeps the focus; the list follows aria-activedescendant). */
export function MentionPopover({ completion }: { completion: MentionCompletion }): ReactNode {
  return (
    <ul
      id={completion.listId}
      role="listbox"
      aria-label="Mention suggestions"
      className="mention-popover"
      hidden={!completion.open}
    >
      {completion.open &&
        completion.options.map((option, index) => (
          <li
            key={`${option.kind}:${option.value}`}
            id={completion.optionId(index)}
            role="option"
            aria-selected={index === completion.activeIndex}
            className={`mention-option mention-${option.kind}`}
            // The field keeps the focus: a click chooses without blurring it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => completion.choose(index)}
          >
            <span className="mention-label">{option.label}</span>
            {option.hint && <span className="mention-hint"> {option.hint}</span>}
          </li>
        ))}
    </ul>
  )
}

/** The combobox wrapper's ARIA (ARIA 1.1 pattern: the field inside stays a textbox, which a textarea must). */
export function comboboxProps(completion: MentionCompletion) {
  return {
    role: 'combobox',
    'aria-label': 'Mention completion',
    'aria-expanded': completion.open,
    'aria-haspopup': 'listbox' as const,
    'aria-controls': completion.listId
  }
}

/** The field's own ARIA while the list is open. */
export function fieldProps(completion: MentionCompletion) {
  return {
    'aria-autocomplete': 'list' as const,
    'aria-controls': completion.listId,
    'aria-activedescendant': completion.open ? completion.optionId(completion.activeIndex) : undefined
  }
}
