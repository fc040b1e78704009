import {
  MAX_MENTIONS,
  type MentionAttachment,
  parseMentions,
  type Mention,
  type MentionKind
} from '../../../shared/mentions/mentions'
import type { MentionPort, MentionScope } from '../ports/mention-port'
import { fileMention } from './file-mention'
import { folderMention } from './folder-mention'
import { gitChangesMention } from './git-changes-mention'
import { MentionRefused, type MentionExpander, type MentionServices } from './mention-kinds'
import { terminalMention } from './terminal-mention'
import { urlMention } from './url-mention'

/** One expander per mention kind (the compiler asks for a new kind's line). */
const EXPANDERS: { [K in MentionKind]: MentionExpander<K> } = {
  file: fileMention,
  folder: folderMention,
  terminal: terminalMention,
  'git-changes': gitChangesMention,
  url: urlMention
}

const expandOne = <K extends MentionKind>(
  mention: Extract<Mention, { kind: K }>,
  scope: MentionScope,
  services: MentionServices
): Promise<string> => (EXPANDERS[mention.kind] as MentionExpander<K>)(mention, scope, services)

/**
 * The mentions of a message, expanded one after the other (a page may wait for the user's
 * approval): each distinct mention once, a failed one as a line saying why. Other errors (a bug,
 * a cancelled run) are reported the same way: a mention never loses the message.
 */
export function createMentionPort(services: MentionServices = {}): MentionPort {
  return {
    async expand(text, scope) {
      const seen = new Set<string>()
      const attachments: MentionAttachment[] = []
      for (const token of parseMentions(text)) {
        if (seen.has(token.raw)) continue
        seen.add(token.raw)
        const kind = token.mention.kind
        if (attachments.length >= MAX_MENTIONS) {
          attachments.push({
            raw: token.raw,
            kind,
            ok: false,
            text: `more than ${MAX_MENTIONS} mentions in one message.`
          })
          continue
        }
        if (scope.signal.aborted) break
        try {
          const attached = await expandOne(token.mention, scope, services)
          attachments.push({ raw: token.raw, kind, ok: true, text: attached })
        } catch (error) {
          const reason =
            error instanceof MentionRefused
              ? error.message
              : `it could not be read (${String(error instanceof Error ? error.message : error)}).`
          attachments.push({ raw: token.raw, kind, ok: false, text: reason })
        }
      }
      return attachments
    }
  }
}
