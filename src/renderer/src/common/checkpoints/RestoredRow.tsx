import type { ReactNode } from 'react'
import { restoredTitle } from './restore-message'

/** The trace a restore or a revert leaves in the chat once its review was accepted: what was put back. */
export function RestoredRow(props: { how: 'restore' | 'revert'; label: string; files: string[] }): ReactNode {
  const title = restoredTitle(props.how, props.label, props.files.length)
  return (
    <div className="chat-row">
      <details className="restored-row" aria-label={title}>
        <summary>{title}</summary>
        <ul>
          {props.files.map((file) => (
            <li key={file}>
              <code>{file}</code>
            </li>
          ))}
        </ul>
      </details>
    </div>
  )
}
