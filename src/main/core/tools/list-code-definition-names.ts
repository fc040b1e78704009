import type { ListCodeDefinitionNamesParams } from '../../../shared/tools/list-code-definition-names'
import { formatDefinitions } from '../code-index/definition-list'
import { languageFor } from '../code-index/languages'
import type { CodeParser } from '../code-index/parser'
import { WorkspaceError } from '../workspace/types'
import { outsideNote, workspaceErrorOutput } from './file-tool-errors'
import { textOutput, type FileToolContext, type ToolExecutor } from '../ports/tool-types'

/** Files of a directory listed at most (Roo's limit); the rest is named as left out. */
export const DEFINITION_FILES_LIMIT = 50
const MAX_SOURCE_BYTES = 1024 * 1024

type FileOutcome =
  { kind: 'listed'; text: string } | { kind: 'unsupported' | 'empty' | 'skipped'; path: string; why?: string }

/** Why a folder's entry is not read: it links out of the workspace while the folder is inside. */
const LINKS_OUTSIDE = 'it links outside the workspace; name it on its own to read it.'

async function describeFile(
  parser: CodeParser,
  ctx: FileToolContext,
  path: string,
  display: string,
  stayInside = false
): Promise<FileOutcome> {
  const language = languageFor(display)
  if (!language) return { kind: 'unsupported', path: display }
  try {
    // The policy approved the folder, not where its links lead: reading one would bypass the outside-read decision.
    if (stayInside && (await ctx.workspace.resolve(path)).outsideWorkspace)
      return { kind: 'skipped', path: display, why: LINKS_OUTSIDE }
    const file = await ctx.workspace.readText(path, { maxBytes: MAX_SOURCE_BYTES })
    const definitions = await parser.definitions(file.text, language)
    if (definitions.length === 0) return { kind: 'empty', path: display }
    return { kind: 'listed', text: formatDefinitions(display, file.text, definitions) }
  } catch (err) {
    if (err instanceof WorkspaceError) return { kind: 'skipped', path: display, why: err.message }
    throw err
  }
}

function summarize(outcomes: readonly FileOutcome[], leftOut: number): string {
  const sections = outcomes.flatMap((o) => (o.kind === 'listed' ? [o.text] : []))
  const named = (kind: FileOutcome['kind']) =>
    outcomes.flatMap((o) => (o.kind === kind && o.kind !== 'listed' ? [o.path] : []))
  const notes: string[] = []
  const empty = named('empty')
  const unsupported = named('unsupported')
  if (empty.length) notes.push(`No definitions found in: ${empty.join(', ')}`)
  if (unsupported.length) notes.push(`Not parsed (language not supported): ${unsupported.join(', ')}`)
  for (const o of outcomes) if (o.kind === 'skipped') notes.push(`Skipped ${o.path}: ${o.why ?? 'unreadable'}`)
  if (leftOut > 0) notes.push(`(${leftOut} more files not listed: call list_code_definition_names on them one by one.)`)
  if (sections.length === 0 && notes.length === 0) return 'No source files found.'
  return [...sections, ...(notes.length ? [notes.join('\n')] : [])].join('\n\n')
}

export function createListCodeDefinitionNamesExecutor(
  parser: CodeParser
): ToolExecutor<ListCodeDefinitionNamesParams, FileToolContext> {
  return {
    async execute(params, ctx) {
      try {
        const target = await ctx.workspace.resolve(params.path)
        const note = target.outsideWorkspace ? `Definitions in ${target.display}${outsideNote(true)}:\n\n` : ''
        if (target.kind === 'missing') return textOutput(`Error: File not found: ${target.display}`, true)
        if (target.kind !== 'directory') {
          const outcome = await describeFile(parser, ctx, params.path, target.display)
          if (outcome.kind === 'listed') return textOutput(note + outcome.text)
          if (outcome.kind === 'skipped') return textOutput(`Error: ${outcome.why}`, true)
          if (outcome.kind === 'unsupported')
            return textOutput(`${target.display}: not parsed, its language is not supported.`)
          return textOutput(`No definitions found in ${target.display}.`)
        }
        const { entries } = await ctx.workspace.list(params.path, { recursive: false, limit: 10_000 })
        const files = entries.filter((e) => !e.isDirectory)
        const outcomes: FileOutcome[] = []
        for (const entry of files.slice(0, DEFINITION_FILES_LIMIT)) {
          if (ctx.signal.aborted) break
          outcomes.push(await describeFile(parser, ctx, entry.path, entry.path, !target.outsideWorkspace))
        }
        return textOutput(note + summarize(outcomes, Math.max(0, files.length - DEFINITION_FILES_LIMIT)))
      } catch (err) {
        return workspaceErrorOutput(err)
      }
    }
  }
}
