import { useEffect, type ReactNode } from 'react'
import { useClient } from '../../client/client-context'
import { useChatStore, type ModeChoices, type ModeOption } from './chat-store'

/** The modes the core knows (built-in, global, project), kept current by modes:changed; the built-ins until it answers. */
export function useModeOptions(): ModeChoices {
  const client = useClient()
  useEffect(() => {
    void useChatStore.getState().loadModes(client)
  }, [client])
  return useChatStore((state) => state.modes)
}

export function ModePicker(props: { options: ModeOption[]; value: string; onChange: (slug: string) => void }): ReactNode {
  const known = props.options.some((option) => option.slug === props.value)
  return (
    <select className="mode-picker" aria-label="Mode" value={props.value} onChange={(event) => props.onChange(event.target.value)}>
      {!known && <option value={props.value}>{props.value}</option>}
      {props.options.map((option) => (
        <option key={option.slug} value={option.slug} title={option.description}>
          {option.name}
        </option>
      ))}
    </select>
  )
}
