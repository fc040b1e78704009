import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { useClient } from '../../../client/client-context'
import { activeMention, applyMention, specialOptions, type ActiveMention, type MentionOption } from './mention-query'

export interface MentionCompletion {
  open: boolean
  options: MentionOption[]
  activeIndex: number
  listId: string
  optionId(index: number): string
  /** Call from the field's keydown first: true when the list used the key. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean
  /** Call after the text or the caret moved; `typed` (a text change) opens a list Esc closed. */
  update(text: string, caret: number, typed?: boolean): void
  choose(index: number): void
  close(): void
}

/** `@` completion for the composer's field: files and folders of the workspace plus the special mentions. */
export function useMentionCompletion(
  text: string,
  setText: (text: string) => void,
  field: RefObject<HTMLTextAreaElement | null>
): MentionCompletion {
  const client = useClient()
  const [active, setActive] = useState<ActiveMention | null>(null)
  const [options, setOptions] = useState<MentionOption[]>([])
  const [activeIndex, setActiveIndex] = useState(0)
  const [dismissed, setDismissed] = useState<number | null>(null)
  const asked = useRef(0)

  const query = active?.query
  useEffect(() => {
    if (query === undefined) {
      setOptions([])
      return
    }
    const ask = ++asked.current
    const specials = query.startsWith('http') ? [] : specialOptions(query)
    // The list shown stays until the new answer (a folder chosen with Tab asks again): emptied here, it
    // would close under a key pressed in between, and that Enter would send the message.
    setOptions((shown) => (shown.length > 0 ? shown : specials))
    setActiveIndex(0)
    void client.request('mentions:complete', { query }).then((result) => {
      if (ask !== asked.current) return
      const paths: MentionOption[] = (result.ok ? result.value.candidates : []).map((c) => ({
        value: c.isDirectory ? `${c.path}/` : c.path,
        label: c.isDirectory ? `${c.path}/` : c.path,
        kind: c.isDirectory ? 'folder' : 'file'
      }))
      setOptions([...paths, ...specials])
    })
  }, [client, query])

  const open = active !== null && dismissed !== active.start && options.length > 0
  const listId = 'mention-list'
  const optionId = (index: number) => `mention-option-${index}`

  const update = useCallback((nextText: string, caret: number, typed = false) => {
    const next = activeMention(nextText, caret)
    setActive(next)
    if (!next || typed) setDismissed(null)
  }, [])

  // The caret moved without typing (arrows, Home, a click). Not `onSelect`: under Preact's compat
  // layer that is the native `select` event, which fires only when text gets selected.
  useEffect(() => {
    const element = field.current
    if (!element) return
    const moved = () => update(element.value, element.selectionStart)
    element.addEventListener('selectionchange', moved)
    return () => element.removeEventListener('selectionchange', moved)
  }, [field, update])

  const choose = (index: number) => {
    const option = options[index]
    if (!active || !option) return
    const next = applyMention(text, active, option.value)
    setText(next.text)
    requestAnimationFrame(() => {
      const element = field.current
      if (!element) return
      element.focus()
      element.setSelectionRange(next.caret, next.caret)
      update(next.text, next.caret)
    })
    if (!option.value.endsWith('/')) setActive(null)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false
    const keys: Record<string, () => void> = {
      ArrowDown: () => setActiveIndex((i) => (i + 1) % options.length),
      ArrowUp: () => setActiveIndex((i) => (i - 1 + options.length) % options.length),
      Enter: () => choose(activeIndex),
      Tab: () => choose(activeIndex),
      Escape: () => setDismissed(active.start)
    }
    const act = keys[event.key]
    if (!act || event.shiftKey || event.nativeEvent.isComposing) return false
    event.preventDefault()
    event.stopPropagation()
    act()
    return true
  }

  return {
    open,
    options,
    activeIndex,
    listId,
    optionId,
    onKeyDown,
    update,
    choose,
    close: () => active && setDismissed(active.start)
  }
}
