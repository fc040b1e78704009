import { useEffect, useState, type ReactNode } from 'react'
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from '../../../../shared/modes/builtin'
import type { ModesView } from '../../../../shared/contract/modes'
import { useClient } from '../../client/client-context'

export interface ModeOption {
  slug: string
  name: string
  description?: string
}

const BUILT_IN_OPTIONS: ModeOption[] = BUILT_IN_MODES.map((mode) => ({
  slug: mode.slug,
  name: mode.name,
  description: mode.description
}))

/** The modes the core knows (built-in, global, project), kept current; the built-ins until it answers. */
export function useModeOptions(): { options: ModeOption[]; defaultSlug: string } {
  const client = useClient()
  const [state, setState] = useState({ options: BUILT_IN_OPTIONS, defaultSlug: DEFAULT_MODE_SLUG })
  useEffect(() => {
    const apply = (view: ModesView): void =>
      setState({
        options: view.modes.map((mode) => ({ slug: mode.slug, name: mode.name, description: mode.description })),
        defaultSlug: view.defaultSlug
      })
    let live = true
    void client.request('modes:list', {}).then((result) => live && result.ok && apply(result.value))
    const unsubscribe = client.subscribe((name, payload) => {
      if (name === 'modes:changed') apply(payload)
    })
    return () => {
      live = false
      unsubscribe()
    }
  }, [client])
  return state
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
