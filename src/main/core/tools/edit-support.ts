import { WorkspaceError, type ProposedChange, type TextFile } from '../workspace/types'
import { textOutput, type FileToolContext, type ProposalResult } from '../ports/tool-types'

/** The file an edit starts from; a missing file is an error that tells the model what to use. */
export async function readExistingForEdit(
  ctx: FileToolContext,
  path: string,
  tool: string
): Promise<TextFile | ProposalResult> {
  try {
    const file = await ctx.workspace.readTextIfExists(path)
    if (file) return file
    return failed(
      `Error: File not found: ${path}. ${tool} edits existing files; use write_to_file to create a new one.`
    )
  } catch (err) {
    return failedFrom(err)
  }
}

export const isFile = (x: TextFile | ProposalResult): x is TextFile => 'text' in x

export const failed = (text: string): ProposalResult => ({ ok: false, output: textOutput(text, true) })

export function failedFrom(err: unknown): ProposalResult {
  if (err instanceof WorkspaceError) return failed(`Error: ${err.message}`)
  throw err
}

export function modification(file: TextFile, path: string, proposed: string): ProposedChange {
  return {
    path,
    kind: 'modify',
    original: file.text,
    proposed,
    format: { encoding: file.encoding, eol: file.eol, mode: file.mode }
  }
}
