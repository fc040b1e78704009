// What the loop needs to attach the context a user's @-mentions name; core/mentions implements it.
import type { MentionAttachment } from '../../../shared/mentions/mentions'
import type { TaskTerminal } from '../terminal/types'
import type { Workspace } from '../workspace/types'

export type UrlApproval = { approved: true } | { approved: false; reason: string }

/** What a message's mentions are read against: the task's workspace and terminal, and its policy for pages. */
export interface MentionScope {
  taskId: string
  workspace: Workspace
  terminal: TaskTerminal
  signal: AbortSignal
  /** Whether the page may be opened: the policy decides as for a browser launch, asking the user when it asks. */
  approveUrl(url: string): Promise<UrlApproval>
  /** The mode's check for pages a fetched page opens by itself (redirects). */
  checkPage?: (url: string, from?: string) => Promise<{ allowed: boolean; reason: string }>
}

export interface MentionPort {
  /** One attachment per distinct mention of the text, in order; a failed one says why. */
  expand(text: string, scope: MentionScope): Promise<MentionAttachment[]>
}
