import { applyDiffExecutor } from './apply-diff'
import { applyPatchExecutor } from './apply-patch'
import { editExecutor } from './edit'
import { listFilesExecutor } from './list-files'
import { readFileExecutor } from './read-file'
import { searchFilesExecutor } from './search-files'
import type { EditToolExecutor, FileToolContext, ToolExecutor } from './types'
import { writeToFileExecutor } from './write-to-file'

/** Tools that act at once on the workspace (reads). */
export const fileToolExecutors: ReadonlyArray<ToolExecutor<any, FileToolContext>> = [readFileExecutor, listFilesExecutor, searchFilesExecutor]

/** Tools whose output is a staged proposal (the loop stages, the user or the policy decides). */
export const editToolExecutors: ReadonlyArray<EditToolExecutor<any, FileToolContext>> = [
  writeToFileExecutor,
  applyDiffExecutor,
  editExecutor,
  applyPatchExecutor
]
