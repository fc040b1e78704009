import { z } from 'zod'
import { defineTool } from './define'
import { pathParam } from './path-param'

const executeCommandParams = z
  .object({
    command: z
      .string()
      .min(1)
      // Bash drops a NUL (`r\0m` runs `rm`) and control characters hide what runs: refused, not run.
      .refine(
        (command) => !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(command),
        'must not contain a NUL or another control character'
      )
      .refine((command) => /\S/.test(command), 'must not be empty or only whitespace')
      .describe('Shell command'),
    cwd: pathParam('Working directory (default: workspace)').optional(),
    timeout: z.number().positive().optional().describe('Seconds until it moves to the background'),
    outside_sandbox: z.boolean().optional().describe('Only for a command the sandbox breaks')
  })
  .strict()

export const executeCommandTool = defineTool({
  name: 'execute_command',
  group: 'command',
  description: 'Run a shell command in the workspace; read_command_output pages long output.',
  params: executeCommandParams,
  effect: 'command',
  commandLine: (p) => ({ command: p.command, cwd: p.cwd, outsideSandbox: p.outside_sandbox === true }),
  summarize: (p) => `Run ${p.command}${p.cwd ? ` in ${p.cwd}` : ''}${p.outside_sandbox ? ' outside the sandbox' : ''}`
})

export type ExecuteCommandParams = z.output<typeof executeCommandParams>
