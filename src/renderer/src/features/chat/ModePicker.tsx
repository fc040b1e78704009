import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { Icon } from '../../components/icons'
import { useWorkspaceStore } from '../../common/workspace/workspace-store'
import { useChatStore, type ModeChoices, type ModeOption } from '../../common/chat/chat-store'

/** The modes the core knows (built-in, global, project), kept current by modes:changed; the built-ins until it answers. */
export function useModeOptions(): ModeChoices {
  const client = useClient()
  useEffect(() => {
    void useChatStore.getState().loadModes(client)
  }, [client])
  return useChatStore((state) => state.modes)
}

const NETWORK_WORDS: Record<string, string> = {
  none: 'no network',
  ask: 'network asks',
  'allow-list': 'listed domains only'
}

/** Where the mode's commands run, in a few words. */
export const sandboxWords = (option: ModeOption): string =>
  option.sandbox?.enabled
    ? `Sandbox on, ${NETWORK_WORDS[option.sandbox.network] ?? option.sandbox.network}`
    : 'Sandbox off'

/** Whether the mode's grants are in force in this folder. */
export function trustWords(option: ModeOption, folderTrusted: boolean): string {
  if (option.origin !== 'project') return option.origin === 'global' ? 'Your mode' : 'Built-in'
  if (option.savedByUser) return 'Saved by you'
  return folderTrusted ? 'Project mode, folder trusted' : 'Project mode, not trusted: its permissions are off'
}

/**
 * The mode for the next message: a menu button (WAI-ARIA menu button pattern) whose items say what
 * each mode is for, where its commands run, and whether this folder trusts it.
 */
export function ModePicker(props: {
  options: ModeOption[]
  value: string
  onChange: (slug: string) => void
}): ReactNode {
  const folderTrusted = useWorkspaceStore((state) => state.current?.trusted ?? false)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const button = useRef<HTMLButtonElement>(null)
  const items = useRef<Array<HTMLButtonElement | null>>([])
  const menuId = useId()
  const known = props.options.some((option) => option.slug === props.value)
  const options = known ? props.options : [{ slug: props.value, name: props.value }, ...props.options]
  const current = options.find((option) => option.slug === props.value) ?? options[0]

  // Before the next key arrives: Preact runs effects a frame later, where React ran them at once after a key.
  useLayoutEffect(() => {
    if (open) items.current[active]?.focus()
  }, [open, active])

  const openAt = (index: number): void => {
    setActive(Math.max(0, Math.min(options.length - 1, index)))
    setOpen(true)
  }
  const close = (refocus: boolean): void => {
    setOpen(false)
    if (refocus) button.current?.focus()
  }
  const choose = (slug: string): void => {
    props.onChange(slug)
    close(true)
  }
  const selectedIndex = Math.max(
    0,
    options.findIndex((option) => option.slug === props.value)
  )

  const onButtonKey = (event: KeyboardEvent): void => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      openAt(selectedIndex)
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      openAt(options.length - 1)
    }
  }
  const onMenuKey = (event: KeyboardEvent): void => {
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      Home: 0,
      End: options.length - 1
    }
    if (event.key in moves) {
      event.preventDefault()
      setActive((moves[event.key] + options.length) % options.length)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      close(true)
    } else if (event.key === 'Tab') {
      close(false)
    }
  }

  return (
    <div className="mode-menu">
      <button
        ref={button}
        type="button"
        className="mode-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Mode: ${current.name}`}
        onClick={() => (open ? close(false) : openAt(selectedIndex))}
        onKeyDown={onButtonKey}
      >
        {current.name}
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div
          id={menuId}
          className="mode-menu-list"
          role="menu"
          aria-label="Modes"
          onKeyDown={onMenuKey}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget) && event.relatedTarget !== button.current)
              close(false)
          }}
        >
          {options.map((option, index) => (
            <button
              key={option.slug}
              ref={(node) => {
                items.current[index] = node
              }}
              type="button"
              role="menuitemradio"
              aria-checked={option.slug === props.value}
              tabIndex={index === active ? 0 : -1}
              className="mode-menu-item"
              onClick={() => choose(option.slug)}
            >
              <span className="mode-menu-name">
                {option.name}
                {option.slug === props.value && <Icon name="check" size={14} />}
              </span>
              {option.description && <span className="mode-menu-description">{option.description}</span>}
              <span className="mode-menu-facts">
                <span>
                  <Icon name={option.sandbox?.enabled ? 'shield' : 'shieldOff'} size={12} /> {sandboxWords(option)}
                </span>
                <span
                  className={
                    option.origin === 'project' && !option.savedByUser && !folderTrusted ? 'warn-text' : undefined
                  }
                >
                  {trustWords(option, folderTrusted)}
                </span>
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
