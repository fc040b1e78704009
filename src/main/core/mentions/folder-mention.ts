import type { MentionScope } from '../ports/mention-port'
import type { ResolvedPath } from '../workspace/types'
import { MentionRefused, type MentionExpander } from './mention-kinds'
import { refusal, resolveInside } from './mention-paths'

/** As many entries as list_files shows. */
const FOLDER_LIMIT = 200

/** The folder's entries, one a line, as list_files (not recursive) lists them. */
export async function listFolder(scope: MentionScope, folder: ResolvedPath): Promise<string> {
  try {
    const { entries, truncated } = await scope.workspace.list(folder.input, { recursive: false, limit: FOLDER_LIMIT })
    const title = `Contents of ${folder.display}:`
    if (entries.length === 0) return `${title}\n(empty folder)`
    const rows = entries.map((e) => `${e.path}${e.isDirectory ? '/' : ''}`)
    const note = truncated ? `\n(Listing cut at ${FOLDER_LIMIT} entries; list_files on a subfolder shows more.)` : ''
    return `${title}\n${rows.join('\n')}${note}`
  } catch (error) {
    throw refusal(error)
  }
}

/** `@folder/`: its listing. */
export const folderMention: MentionExpander<'folder'> = async (mention, scope) => {
  const resolved = await resolveInside(scope, mention.path)
  if (resolved.kind !== 'directory') throw new MentionRefused(`${resolved.display} is not a folder.`)
  return listFolder(scope, resolved)
}
