import type { ReactNode } from 'react'
import { segmentMentions } from '../../../../../shared/mentions/mentions'

/** A user's message with its @-mentions as chips (the text itself is unchanged). */
export function MentionText({ text }: { text: string }): ReactNode {
  return segmentMentions(text).map((segment, index) =>
    segment.kind === 'text' ? (
      segment.text
    ) : (
      <span key={index} className="mention-chip" data-mention={segment.token.mention.kind}>
        @{segment.token.raw}
      </span>
    )
  )
}
