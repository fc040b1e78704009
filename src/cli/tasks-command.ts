import type { TaskSummary } from '../shared/contract/task'
import type { ResumeArgs, TasksArgs } from './args'
import type { CliIo } from './cli-io'
import { EXIT, followTask, withServices } from './run-command'
import { visible } from './visible'
import { expandSlashCommand } from './run-inputs'
import { runTaskBuiltin, taskBuiltinOf } from './task-builtins'
import { homedir } from 'node:os'
import { resolveDataDir } from '../main/core/app-paths'

const dataDirOf = (io: CliIo): string => resolveDataDir({ env: io.env, platform: process.platform, home: homedir() })

const RECENT = 20
/** Statuses a run can pick up from without a message: the loop stopped before finishing (Ctrl-C included). */
const RESUMABLE = new Set<TaskSummary['status']>([
  'interrupted',
  'cancelled',
  'failed',
  'idle',
  'stopped',
  'running',
  'waiting'
])

/** The workspace's top-level tasks, newest activity first. */
const tasksOf = (all: readonly TaskSummary[], workspace: string): TaskSummary[] =>
  all.filter((task) => task.workspace === workspace && !task.parentId).sort((a, b) => b.updatedAt - a.updatedAt)

const when = (at: number): string => new Date(at).toISOString().slice(0, 16).replace('T', ' ')

/** `modus tasks`: one line per recent task of the workspace. */
export function tasksCommand(args: TasksArgs, io: CliIo): Promise<number> {
  const options = { workspace: args.workspace, mode: 'code', json: args.json, nonInteractive: true, trust: false }
  return withServices(options, io, async (services, workspace) => {
    const tasks = tasksOf(services.tasks.list(), workspace).slice(0, RECENT)
    if (args.json) {
      for (const task of tasks) io.stdout.write(`${JSON.stringify(task)}\n`)
      return EXIT.completed
    }
    if (tasks.length === 0) {
      io.stderr.write(`modus: no tasks in ${workspace} yet\n`)
      return EXIT.completed
    }
    for (const task of tasks) {
      io.stdout.write(
        `${task.id.slice(0, 8)}  ${task.status.padEnd(11)} ${task.mode.padEnd(10)} ${when(task.updatedAt)}  ${visible(task.title)}\n`
      )
    }
    return EXIT.completed
  })
}

/** `modus resume [TASK] [message]`: continues a task where it stopped, or with a message. */
export function resumeCommand(args: ResumeArgs, io: CliIo): Promise<number> {
  return withServices(args, io, async (services, workspace, reader) => {
    const tasks = tasksOf(services.tasks.list(), workspace)
    const [first, ...rest] = args.words
    const named = first ? tasks.filter((task) => task.id.startsWith(first)) : []
    if (named.length > 1) {
      io.stderr.write(`modus: "${first}" starts ${named.length} task ids; give more of it (see modus tasks)\n`)
      return EXIT.usage
    }
    const task = named[0] ?? tasks[0]
    if (!task) {
      io.stderr.write(`modus: no task to resume in ${workspace} (modus tasks lists them)\n`)
      return EXIT.usage
    }
    const message = (named[0] ? rest : args.words).join(' ').trim()
    if (args.switchMode && !message) {
      // The mode changes with a message the model reads; a bare resume goes on where it stopped.
      io.stderr.write(
        `modus: --mode switches the task's mode with a message: modus resume ${task.id.slice(0, 8)} --mode ${args.switchMode} "…"\n`
      )
      return EXIT.usage
    }
    if (!message && !RESUMABLE.has(task.status)) {
      io.stderr.write(
        `modus: task ${task.id.slice(0, 8)} is ${task.status}; add a message to continue it: modus resume ${task.id.slice(0, 8)} "…"\n`
      )
      return EXIT.usage
    }
    const builtin = taskBuiltinOf(message)
    if (builtin) {
      await runTaskBuiltin(services, task.id, builtin, io)
      return EXIT.completed
    }
    io.stderr.write(`modus: resuming ${task.id.slice(0, 8)} (${task.status}): ${visible(task.title)}\n`)
    const text = message && (await expandSlashCommand(message, { dataDir: dataDirOf(io), workspace }))
    return followTask(services, args, workspace, io, reader, () =>
      text ? services.tasks.send({ taskId: task.id, text, mode: args.switchMode }) : services.tasks.resume(task.id)
    )
  })
}
