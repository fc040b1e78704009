import { extname } from 'node:path'
import { DEFAULT_LINE_LIMIT, formatLines } from '../../../shared/diff/read-lines'
import { capText, MentionRefused, type MentionExpander } from './mention-kinds'
import { refusal, resolveInside } from './mention-paths'
import { listFolder } from './folder-mention'

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.ico', '.avif'])

/** `@path/to/file`: the file's lines numbered as read_file shows them (a folder named without `/` is listed). */
export const fileMention: MentionExpander<'file'> = async (mention, scope) => {
  const resolved = await resolveInside(scope, mention.path)
  if (resolved.kind === 'directory') return listFolder(scope, resolved)
  if (resolved.kind !== 'file') throw new MentionRefused(`${resolved.display} is not a regular file.`)
  if (IMAGE_EXTENSIONS.has(extname(resolved.display).toLowerCase())) {
    throw new MentionRefused(`${resolved.display} is an image; a mention attaches text only.`)
  }
  try {
    const range = await scope.workspace.readLines(mention.path, 1, DEFAULT_LINE_LIMIT)
    const header = `File: ${resolved.display}`
    if (range.totalLines === 0) return `${header}\n(empty file)`
    const numbered = range.lines.map((content, i) => ({ lineNumber: i + 1, content }))
    const more =
      range.totalLines > range.lines.length
        ? `\n(Showing lines 1-${range.lines.length} of ${range.totalLines}; read_file with offset=${range.lines.length + 1} reads on.)`
        : ''
    return capText(`${header}\n${formatLines(numbered)}${more}`, 'The file', 'read_file with an offset reads on.')
  } catch (error) {
    throw refusal(error)
  }
}
