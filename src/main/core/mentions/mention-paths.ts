import type { MentionScope } from '../ports/mention-port'
import { WorkspaceError, type ResolvedPath } from '../workspace/types'
import { MentionRefused } from './mention-kinds'

/**
 * A path a mention names, resolved as read_file resolves it but held to the workspace: a mention is
 * the user's pointer into their project, so `..` or a link that leads out attaches nothing (read_file
 * would ask; a mention has no one to ask before the message goes).
 */
export async function resolveInside(scope: MentionScope, path: string): Promise<ResolvedPath> {
  let resolved: ResolvedPath
  try {
    resolved = await scope.workspace.resolve(path)
  } catch (error) {
    throw refusal(error)
  }
  if (resolved.outsideWorkspace) {
    throw new MentionRefused(
      `${path} is outside the workspace${resolved.viaSymlink ? ' (a symbolic link leads out)' : ''}; mentions attach only files of the open folder.`
    )
  }
  if (resolved.ignored) throw new MentionRefused(`${resolved.display} is excluded by .modusignore/.rooignore.`)
  if (resolved.kind === 'missing') throw new MentionRefused(`${resolved.display} does not exist in the workspace.`)
  return resolved
}

/** Workspace errors (binary, too large, ignored) become the line the user sees. */
export function refusal(error: unknown): Error {
  if (error instanceof WorkspaceError) return new MentionRefused(error.message)
  return error instanceof Error ? error : new Error(String(error))
}
