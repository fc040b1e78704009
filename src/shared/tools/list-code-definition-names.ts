import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const listCodeDefinitionNamesParams = z
  .object({
    path: pathParam('Workspace-relative file, or a directory whose top-level files are listed')
  })
  .strict()

export const listCodeDefinitionNamesTool = defineTool({
  name: 'list_code_definition_names',
  group: 'read',
  description:
    'List the definitions (classes, functions, methods, interfaces, types, enums) in a source file, or in the top-level files of a directory, with their line ranges. Use it to see how code is organised before reading it.',
  params: listCodeDefinitionNamesParams,
  effect: 'read',
  readPaths: (p) => [p.path],
  summarize: (p) => `List definitions in ${p.path}`
})

export type ListCodeDefinitionNamesParams = z.output<typeof listCodeDefinitionNamesParams>
