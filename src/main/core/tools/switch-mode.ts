import type { SwitchModeParams } from '../../../shared/tools/switch-mode'
import { textOutput, type TaskToolContext, type TaskToolExecutor } from '../ports/tool-types'

export const invalidModeText = (slug: string, ctx: TaskToolContext): string =>
  `Invalid mode: ${slug}. Available modes: ${ctx.loop.gate
    .modes()
    .map((m) => m.slug)
    .join(', ')}.`

/** Moves the task to another mode (the policy has already asked when the mode wants that). */
export const switchModeExecutor: TaskToolExecutor<SwitchModeParams> = {
  async execute({ mode_slug: slug, reason }, ctx) {
    const { session, loop } = ctx
    const target = loop.gate.mode(slug)
    if (!target) return { kind: 'result', output: textOutput(invalidModeText(slug, ctx)) }
    const from = loop.gate.mode(session.mode)
    if (slug === session.mode) return { kind: 'result', output: textOutput(`Already in ${target.name} mode.`) }
    session.setMode(slug, reason || undefined)
    return {
      kind: 'result',
      output: textOutput(
        `Switched from ${from?.name ?? session.mode} mode to ${target.name} mode${reason ? ` because: ${reason}` : ''}.`
      )
    }
  }
}
