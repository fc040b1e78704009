import { z } from 'zod'
import { defineTool } from './define'

const switchModeParams = z
  .object({
    mode_slug: z.string().min(1),
    reason: z.string().describe('Why the switch is needed')
  })
  .strict()

export const switchModeTool = defineTool({
  name: 'switch_mode',
  group: 'modes',
  description: 'Ask to switch to another mode.',
  params: switchModeParams,
  effect: 'task-control',
  approvalToggle: 'modeSwitch',
  summarize: (p) => `Switch to ${p.mode_slug}`
})

export type SwitchModeParams = z.output<typeof switchModeParams>
