import { parseArgs, UsageError, USAGE } from './args'
import type { CliIo } from './cli-io'
import { checkpointsCommand, restoreCommand } from './checkpoints-command'
import { hooksCommand } from './hooks-command'
import { promptCommand } from './prompt-command'
import { EXIT, runCommand } from './run-command'
import { resumeCommand, tasksCommand } from './tasks-command'
import { worktreesCommand } from './worktrees-command'

/** The headless CLI on the same core as the app; returns the exit code. */
export async function cli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const args = parseArgs(argv, io.cwd)
    if (args.command === 'help') {
      io.stdout.write(`${USAGE}\n`)
      return 0
    }
    if (args.command === 'prompt') return await promptCommand(args, io)
    if (args.command === 'tasks') return await tasksCommand(args, io)
    if (args.command === 'checkpoints') return await checkpointsCommand(args, io)
    if (args.command === 'restore') return await restoreCommand(args, io)
    if (args.command === 'hooks') return await hooksCommand(args, io)
    if (args.command === 'resume') return await resumeCommand(args, io)
    if (args.command === 'worktrees') return await worktreesCommand(args, io)
    return await runCommand(args, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`modus: ${error.message}\n\n${USAGE}\n`)
      return EXIT.usage
    }
    io.stderr.write(`modus: ${error instanceof Error ? error.message : String(error)}\n`)
    return EXIT.failed
  }
}

// Run when loaded as the entry (bin/modus.mjs requires the built file; tests import `cli` instead).
if (process.env.MODUS_CLI_NO_AUTORUN !== '1') {
  void cli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd()
  }).then((code) => {
    process.exitCode = code
    // The terminal service and stdin may hold the loop open; the run is over.
    setTimeout(() => process.exit(code), 50).unref()
  })
}
