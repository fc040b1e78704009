import type { ReadCommandOutputParams } from '../../../shared/tools/read-command-output'
import { savedOutputCut } from './execute-command'
import { textOutput, type CommandToolContext, type ToolExecutor } from '../ports/tool-types'

/**
 * read_command_output: pages (byte offset + limit) or searches (case-insensitive regex, literal if
 * invalid) a command's saved output — also while a background command is still writing it.
 */
export function createReadCommandOutputExecutor(): ToolExecutor<ReadCommandOutputParams, CommandToolContext> {
  return {
    async execute(params, ctx) {
      try {
        const page = await ctx.terminal.readOutput(params.artifact_id, {
          offset: params.offset,
          limit: params.limit,
          search: params.search
        })
        const info = page.command
        const status = !info
          ? 'finished'
          : info.endedAt === null
            ? `${info.state === 'waiting-input' ? 'waiting for input' : 'still running'}, pid ${info.pid ?? 'unknown'}`
            : info.state === 'killed'
              ? `stopped (exit code ${info.exitCode ?? 'unknown'})`
              : `exited with code ${info.exitCode ?? 'unknown'}`
        const what = info ? `\`${info.command}\` (${status})` : params.artifact_id
        const total = page.totalBytes.toLocaleString('en-US')
        // A file cut by a full disk must not pass for the whole output: "0 matches" would be a false answer.
        const cut = page.saveStopped ? `\n\n${savedOutputCut(page.saveStopped)}` : ''
        if (params.search !== undefined) {
          const kind = page.literal ? 'text (not a valid regex, matched literally)' : 'regex'
          const head = `Search of ${what} for ${kind} /${params.search}/i, bytes ${page.start}–${page.totalBytes} of ${total}: ${page.matches} matching line(s).`
          const more = page.moreMatches
            ? `\n\n[More matches after byte ${page.end}: search again with offset=${page.end}.]`
            : ''
          return textOutput(`${head}\n${page.text || '(no matches)'}${more}${cut}`)
        }
        const head = `Output of ${what}: bytes ${page.start}–${page.end} of ${total}.`
        const more = page.end < page.totalBytes ? `\n\n[More: read_command_output with offset=${page.end}.]` : ''
        return textOutput(`${head}\n${page.text}${more}${cut}`)
      } catch (error) {
        return textOutput(`read_command_output failed: ${error instanceof Error ? error.message : String(error)}`, true)
      }
    }
  }
}

export const readCommandOutputExecutor = createReadCommandOutputExecutor()
