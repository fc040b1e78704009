import type { ReactNode } from 'react'
import { outputExtent, type CommandOutput } from './command-output'

/**
 * A command's output under its card: the live tail while it runs, folded once it ended (the user
 * opens it). Plain text (escape sequences were removed by the core), never parsed as markup.
 */
export function CommandOutputView({ output }: { output: CommandOutput }): ReactNode {
  const extent = outputExtent(output)
  const text = (
    <pre className="command-output-text" tabIndex={0} aria-label={`Command output, ${extent}`}>
      {output.tail}
    </pre>
  )
  if (output.live)
    return (
      <div className="command-output command-output-live">
        <p className="command-output-extent note">Output so far — {extent}</p>
        {text}
      </div>
    )
  return (
    <details className="command-output">
      <summary>Output — {extent}</summary>
      {text}
    </details>
  )
}
