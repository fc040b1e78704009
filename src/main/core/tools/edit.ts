import type { EditParams } from '../../../shared/tools/edit'
import { toLf, withLineEnding } from '../../../shared/diff/text'
import { replaceLinesLoosely } from '../../../shared/diff/loose-replace'
import { crossesIndentKind, detectIndentStyle } from '../../../shared/diff/reindent'
import { failed, isFile, modification, readExistingForEdit } from './edit-support'
import type { EditToolExecutor, FileToolContext } from '../ports/tool-types'

function countOccurrences(haystack: string, needle: string): number {
  let n = 0
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++
  return n
}

/** The new text indents with tabs where the file uses spaces, or the reverse. */
function newIndentsOtherwise(text: string, oldString: string, newString: string): boolean {
  const lines = text.split('\n')
  return crossesIndentKind(oldString.split('\n'), [], newString.split('\n'), () => detectIndentStyle(lines))
}

export const editExecutor: EditToolExecutor<EditParams, FileToolContext> = {
  async propose(params, ctx) {
    if (params.old_string === '')
      return failed(
        "Error: 'old_string' is empty. Give the exact text to replace (use write_to_file to create a file)."
      )
    if (params.old_string === params.new_string)
      return failed("Error: 'old_string' and 'new_string' are identical; the edit would change nothing.")
    const file = await readExistingForEdit(ctx, params.file_path, 'edit')
    if (!isFile(file)) return file
    const text = toLf(file.text)
    const oldString = toLf(params.old_string)
    const newString = toLf(params.new_string)
    const count = countOccurrences(text, oldString)
    // Lines written with other indentation (spaces for the file's tabs…) match and are re-indented.
    if (count === 0 || newIndentsOtherwise(text, oldString, newString)) {
      const loose = replaceLinesLoosely(text, oldString, newString, params.replace_all === true)
      if (loose.text !== null) {
        return {
          ok: true,
          changes: [modification(file, params.file_path, withLineEnding(loose.text, file.eol))],
          notes: [
            `Replaced ${loose.count} occurrence${loose.count === 1 ? '' : 's'} of 'old_string' in ${file.path.display}, re-indented to the file's indentation.`
          ]
        }
      }
      if (count === 0 && loose.count > 1) {
        return failed(
          `Error: 'old_string' matches ${loose.count} places in ${file.path.display} once indentation is ignored. Use replace_all: true to replace every occurrence, or include more surrounding text to make it unique.`
        )
      }
    }
    if (count === 0) {
      return failed(
        `Error: No match found for 'old_string' in ${file.path.display}. Make sure the text appears exactly in the file, including whitespace and indentation (read_file shows it; do not copy the "N | " prefixes).`
      )
    }
    if (count > 1 && !params.replace_all) {
      return failed(
        `Error: Found ${count} matches of 'old_string' in ${file.path.display}. Use replace_all: true to replace every occurrence, or include more surrounding text in 'old_string' to make it unique.`
      )
    }
    const updated = params.replace_all
      ? text.split(oldString).join(newString)
      : text.replace(oldString, () => newString)
    const proposed = withLineEnding(updated, file.eol)
    return {
      ok: true,
      changes: [modification(file, params.file_path, proposed)],
      notes: [`Replaced ${count} occurrence${count === 1 ? '' : 's'} of 'old_string' in ${file.path.display}.`]
    }
  }
}
