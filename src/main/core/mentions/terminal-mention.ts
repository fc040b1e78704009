import { cleanControls } from '../terminal/ansi'
import { MentionRefused, type MentionExpander } from './mention-kinds'

/** The end of the output is what the user means by "what the terminal just said". */
const TAIL_BYTES = 40_000

/** `@terminal`: the task's last command and the end of its output (as read_command_output reads it). */
export const terminalMention: MentionExpander<'terminal'> = async (_mention, scope) => {
  const last = scope.terminal.lastCommand?.() ?? null
  if (!last) throw new MentionRefused('this task has not run a command in its terminal yet.')
  const size = await scope.terminal.readOutput(last.artifactId, { offset: Number.MAX_SAFE_INTEGER, limit: 1 })
  const from = Math.max(0, size.totalBytes - TAIL_BYTES)
  const page = await scope.terminal.readOutput(last.artifactId, { offset: from, limit: TAIL_BYTES })
  const state =
    last.endedAt === null ? 'still running' : last.exitCode === null ? last.state : `exit code ${last.exitCode}`
  const cut =
    from > 0
      ? `(the last ${TAIL_BYTES.toLocaleString('en-US')} bytes of ${page.totalBytes.toLocaleString('en-US')}; read_command_output with artifact_id ${last.artifactId} reads the rest)\n`
      : ''
  const output = cleanControls(page.text).trimEnd()
  return `$ ${last.command}\n(${state}, in ${last.cwd})\n${cut}${output === '' ? '(no output)' : output}`
}
