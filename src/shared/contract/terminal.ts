import { z } from 'zod'
import { request } from './define'

/** A command Modus ran in a task terminal (the model's execute_command), live or finished. */
export const TerminalCommandInfo = z.object({
  id: z.string(),
  /** Pass to read_command_output; also the saved output's file name. */
  artifactId: z.string(),
  command: z.string(),
  cwd: z.string(),
  /** Foreground process (group) while it runs; null once it ended. */
  pid: z.number().int().nullable(),
  state: z.enum(['running', 'waiting-input', 'exited', 'killed']),
  /** The model's call returned while it kept running (timeout, server, waiting for input). */
  background: z.boolean(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  exitCode: z.number().int().nullable()
})
export type TerminalCommandInfo = z.infer<typeof TerminalCommandInfo>

export const TerminalInfo = z.object({
  id: z.string(),
  kind: z.enum(['task', 'user']),
  taskId: z.string().nullable(),
  title: z.string(),
  shell: z.string(),
  pid: z.number().int().nullable(),
  cwd: z.string(),
  status: z.enum(['starting', 'idle', 'busy', 'exited']),
  exitCode: z.number().int().nullable(),
  /** Survives the end of its task (the user chose to keep it). */
  kept: z.boolean(),
  /** The running command, else the last one. */
  command: TerminalCommandInfo.nullable()
})
export type TerminalInfo = z.infer<typeof TerminalInfo>

const terminalId = z.object({ terminalId: z.string().min(1).max(100) }).strict()

export const terminalRequests = {
  'terminal:list': request(z.object({}).strict(), z.array(TerminalInfo)),
  /** A user terminal (not tied to a task) in the workspace root, or `cwd` inside it. */
  'terminal:create': request(
    z
      .object({
        cwd: z.string().min(1).optional(),
        cols: z.number().int().min(2).max(1000).optional(),
        rows: z.number().int().min(1).max(1000).optional()
      })
      .strict(),
    TerminalInfo
  ),
  /** Keystrokes or pasted text for the terminal's foreground program. */
  'terminal:write': request(
    z.object({ terminalId: z.string().min(1).max(100), data: z.string().max(1_000_000) }).strict(),
    z.object({ ok: z.literal(true) })
  ),
  'terminal:resize': request(
    z
      .object({
        terminalId: z.string().min(1).max(100),
        cols: z.number().int().min(2).max(1000),
        rows: z.number().int().min(1).max(1000)
      })
      .strict(),
    z.object({ ok: z.literal(true) })
  ),
  /** Ends the terminal's shell and every process in it. */
  'terminal:kill': request(terminalId, z.object({ ok: z.literal(true) })),
  /** Stops the running command (its whole process tree); the terminal stays. */
  'terminal:stopCommand': request(terminalId, z.object({ ok: z.literal(true) })),
  /** Keep a task terminal (e.g. a dev server) running after its task ends, or stop keeping it. */
  'terminal:keep': request(
    z.object({ terminalId: z.string().min(1).max(100), keep: z.boolean() }).strict(),
    z.object({ ok: z.literal(true) })
  ),
  /** Recent output (up to ~1 MB) for a tab that (re)connects. */
  'terminal:output': request(terminalId, z.object({ data: z.string() }))
}

export const terminalEvents = {
  /** Output for the terminal view, coalesced (markers removed, raw otherwise). */
  'terminal:data': z.object({ terminalId: z.string(), data: z.string() }),
  /** Every terminal, whenever one starts, ends or changes state. */
  'terminal:changed': z.array(TerminalInfo)
}
