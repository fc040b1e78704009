import type { ReactNode } from 'react'
import { Icon } from '../../components/icons'
import type { ToolTitle } from './tool-words'
import './tool-heading.css'

/** What a call did (or asks to do) in words; the raw tool name is on hover for those who know it. */
export function ToolHeading({ title, toolName }: { title: ToolTitle; toolName: string }): ReactNode {
  return (
    <span className="tool-title" title={`Tool: ${toolName}`}>
      <Icon name={title.icon} />
      <span>
        {title.verb}
        {title.target &&
          (title.plainTarget ? (
            ` ${title.target}`
          ) : (
            <>
              {' '}
              <code className="tool-target">{title.target}</code>
            </>
          ))}
        {title.outcome && <span className="tool-outcome"> — {title.outcome}</span>}
      </span>
    </span>
  )
}
