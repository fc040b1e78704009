import { useId, type ReactNode } from 'react'

/** One Settings section: its heading, what it is for, then its form or list (see components/SettingsForm). */
export function SettingsSection(props: { title: string; description?: ReactNode; children: ReactNode }): ReactNode {
  const id = useId()
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.description && <p className="note settings-description">{props.description}</p>}
      {props.children}
    </section>
  )
}
