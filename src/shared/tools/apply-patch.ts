import { z } from 'zod'
import { defineTool } from './define'
import { hasControlCharacter } from './path-param'

const applyPatchParams = z
  .object({
    patch: z
      .string()
      .min(1)
      .refine(
        (patch) => !patchFilePaths(patch).some(hasControlCharacter),
        'file paths must not contain a NUL or another control character'
      )
      .describe(
        '*** Begin Patch\n*** Add File: p | *** Delete File: p | *** Update File: p [*** Move to: q]\n@@ context\n-old\n+new\n*** End Patch'
      )
  })
  .strict()

const FILE_HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/

/** Every path a patch names, move targets included: the file restriction must see all of them. */
export function patchFilePaths(patch: string): string[] {
  const paths: string[] = []
  for (const rawLine of patch.split(/\r?\n/)) {
    const match = FILE_HEADER.exec(rawLine.trimEnd())
    if (match) paths.push(match[2].trim())
  }
  return [...new Set(paths)]
}

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  group: 'edit',
  description: 'Apply a multi-file patch (add, delete, update, move).',
  params: applyPatchParams,
  effect: 'edit',
  optIn: true,
  writePaths: (p) => patchFilePaths(p.patch),
  summarize: (p) => {
    const paths = patchFilePaths(p.patch)
    return `Patch ${paths.length === 1 ? paths[0] : `${paths.length} files`}`
  }
})

export type ApplyPatchParams = z.output<typeof applyPatchParams>
