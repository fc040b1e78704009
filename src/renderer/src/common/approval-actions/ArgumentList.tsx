import type { ReactNode } from 'react'

/** A tool call's key arguments as a name/value list (approval items and chat tool cards). */
export function ArgumentList({
  args,
  className
}: {
  args: Array<{ name: string; value: string }>
  className: string
}): ReactNode {
  return (
    <dl className={className}>
      {args.map((arg) => (
        <div key={arg.name}>
          <dt>{arg.name}</dt>
          <dd>
            <code>{arg.value}</code>
          </dd>
        </div>
      ))}
    </dl>
  )
}
