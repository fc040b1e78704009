import { UserFacingError } from '../../../shared/contract/dispatch'
import type { TaskSession } from '../ports/task-session'

/**
 * "Rewind the conversation to here": the messages the model received after the checkpoint are no
 * longer sent (hidden in the log, so a reload agrees), and the chat drops what followed. Files are
 * left alone; restoring them is the separate checkpoint restore.
 */
export function rewindSession(session: TaskSession, checkpointId: string, now: () => number): void {
  const marker = session.events.find((event) => event.type === 'checkpoint' && event.checkpointId === checkpointId)
  if (!marker || marker.type !== 'checkpoint' || marker.messageCount === undefined) {
    throw new UserFacingError('not_found', `This task has no checkpoint ${checkpointId} to rewind to.`)
  }
  const later = session.history.slice(marker.messageCount).filter((stored) => !stored.hidden)
  session.hide(
    later.map((stored) => stored.id),
    'rewind'
  )
  session.results.clear()
  session.emit({ type: 'rewound', at: now(), checkpointId })
}
