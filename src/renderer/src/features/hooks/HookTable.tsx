import type { ReactNode } from 'react'
import type { HookEntry } from '../../../../shared/contract/hooks'
import { matcherWords, timeLimitWords } from './hook-draft'

/** Hooks as a table: event, tools matched, command, time limit, and (for the user's own) their actions. */
export function HookTable(props: {
  label: string
  hooks: HookEntry[]
  actions?: (hook: HookEntry, index: number) => ReactNode
}): ReactNode {
  return (
    <table className="hook-table" aria-label={props.label}>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Tools</th>
          <th scope="col">Command</th>
          <th scope="col">Time limit</th>
          {props.actions && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {props.hooks.map((hook, index) => (
          <tr key={`${hook.event}-${index}-${hook.command}`}>
            <td>
              {hook.event}
              {hook.modes && <span className="note"> in {hook.modes.join(', ')}</span>}
            </td>
            <td className="mono">{matcherWords(hook)}</td>
            <td className="mono hook-command">
              {hook.name && <span className="hook-name">{hook.name}: </span>}
              {hook.command}
            </td>
            <td>{timeLimitWords(hook)}</td>
            {props.actions && <td className="hook-actions">{props.actions(hook, index)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
