import type { ApprovalDecision, ApprovalItem, ChangeDecision, ChangeView } from '../shared/contract/approvals'
import type { CheckpointView } from '../shared/contract/checkpoints'
import type { TaskSummary } from '../shared/contract/task'
import { displayCounts, displayRows } from '../shared/diff/hunks'
import type { AgentServices } from '../main/core/create-agent-services'
import type { CheckpointsArgs, RestoreArgs } from './args'
import type { CliIo, LineReader } from './cli-io'
import { EXIT, withServices } from './run-command'
import { visible } from './visible'

const when = (at: number): string => new Date(at).toISOString().slice(0, 19).replace('T', ' ')
const serviceOptions = (args: { workspace: string }) => ({
  workspace: args.workspace,
  mode: 'code',
  json: false,
  nonInteractive: true,
  trust: false
})

/** The workspace's top-level tasks, newest first. */
const tasksOf = (services: AgentServices, workspace: string): TaskSummary[] =>
  services.tasks
    .list()
    .filter((task) => task.workspace === workspace && !task.parentId)
    .sort((a, b) => b.updatedAt - a.updatedAt)

/** `modus checkpoints [TASK]`: a task's checkpoints (default: the workspace's latest task), oldest first. */
export function checkpointsCommand(args: CheckpointsArgs, io: CliIo): Promise<number> {
  return withServices(serviceOptions(args), io, async (services, workspace) => {
    const tasks = tasksOf(services, workspace)
    const named = args.task ? tasks.filter((task) => task.id.startsWith(args.task!)) : tasks.slice(0, 1)
    if (named.length !== 1) {
      io.stderr.write(
        args.task
          ? `modus: "${args.task}" names ${named.length} tasks of ${workspace} (modus tasks lists them)\n`
          : `modus: no tasks in ${workspace} yet\n`
      )
      return EXIT.usage
    }
    const task = named[0]
    const markers = await services.handlers['checkpoints:list']({ taskId: task.id })
    if (args.json) {
      for (const marker of markers) io.stdout.write(`${JSON.stringify(marker)}\n`)
      return EXIT.completed
    }
    io.stdout.write(visible(`Checkpoints of ${task.id.slice(0, 8)}: ${task.title}\n`))
    if (markers.length === 0) io.stdout.write('  none yet\n')
    for (const marker of markers)
      io.stdout.write(visible(`${marker.id}  ${when(marker.at)}  ${describeChanged(marker)}  ${marker.label}\n`))
    return EXIT.completed
  })
}

const describeChanged = (marker: CheckpointView): string =>
  `${marker.changedFiles} file${marker.changedFiles === 1 ? '' : 's'} changed since`.padEnd(24)

/**
 * `modus restore CHECKPOINT`: the same restore as the app's. The diff from now back to the
 * checkpoint is proposed as a review; nothing is written until it is answered here, file by file
 * and hunk by hunk (or all at once with --yes, which leaves files changed by someone else alone).
 */
export function restoreCommand(args: RestoreArgs, io: CliIo): Promise<number> {
  return withServices(serviceOptions(args), io, async (services, workspace, reader) => {
    const found = await findCheckpoint(services, workspace, args.checkpoint)
    if (typeof found === 'string') {
      io.stderr.write(`modus: ${found}\n`)
      return EXIT.usage
    }
    const asked = new Promise<ApprovalItem>((resolve) => {
      const stop = services.approvals.subscribe((items) => {
        const item = items.find((i) => i.taskId === found.task.id && i.tool === 'restore_checkpoint')
        if (item) {
          stop()
          resolve(item)
        }
      })
    })
    const summary = await services.handlers['checkpoints:restore']({
      taskId: found.task.id,
      checkpointId: found.marker.id
    })
    for (const path of summary.restored)
      io.stdout.write(visible(`Restored ${path} (binary, unchanged since Modus wrote it)\n`))
    for (const skipped of summary.notRestored) io.stdout.write(visible(`Not restored: ${skipped.reason}\n`))
    if (!summary.approvalId) {
      io.stdout.write(
        summary.restored.length ? 'Done.\n' : 'Nothing to restore: the files are as they were at that checkpoint.\n'
      )
      return EXIT.completed
    }
    const item = await asked
    const decision = args.yes ? acceptAllButConflicts(item) : await reviewOnTerminal(item, reader, io)
    services.approvals.decide(decision)
    const changes = await settled(
      services,
      found.task.id,
      (item.changes ?? []).map((change) => change.id)
    )
    for (const change of changes) io.stdout.write(visible(`${change.path}: ${change.status}\n`))
    if (summary.undoCheckpointId) io.stdout.write(`To undo: modus restore ${summary.undoCheckpointId}\n`)
    return decision.outcome === 'approve' ? EXIT.completed : EXIT.stopped
  })
}

async function findCheckpoint(
  services: AgentServices,
  workspace: string,
  id: string
): Promise<{ task: TaskSummary; marker: CheckpointView } | string> {
  const matches: Array<{ task: TaskSummary; marker: CheckpointView }> = []
  for (const task of tasksOf(services, workspace)) {
    const markers = await services.handlers['checkpoints:list']({ taskId: task.id }).catch(() => [])
    for (const marker of markers) if (marker.id.startsWith(id)) matches.push({ task, marker })
  }
  if (matches.length === 1) return matches[0]
  return matches.length === 0
    ? `no checkpoint "${id}" in ${workspace} (modus checkpoints lists them)`
    : `"${id}" starts ${matches.length} checkpoint ids; give more of it`
}

/** --yes: every file, every hunk, except files changed by someone else since Modus wrote them (the app leaves those unticked too). */
function acceptAllButConflicts(item: ApprovalItem): ApprovalDecision {
  const changes: ChangeDecision[] = (item.changes ?? []).map((change) =>
    change.conflict ? { changeId: change.id, acceptedHunks: [] } : { changeId: change.id }
  )
  return { approvalId: item.id, outcome: 'approve', scope: 'call', changes }
}

/** The review on the terminal: each file's hunks shown, then y (all), n (none) or h (hunk by hunk). */
async function reviewOnTerminal(item: ApprovalItem, reader: LineReader, io: CliIo): Promise<ApprovalDecision> {
  const out = (text: string) => io.stderr.write(visible(text))
  out(`\n── ${item.summary} ──\n${item.reason}\n`)
  const changes: ChangeDecision[] = []
  for (const change of item.changes ?? []) {
    out(`\n${change.operation} ${change.path}${change.conflict ? ` (conflict: ${change.conflict})` : ''}\n`)
    for (const hunk of change.hunks) out(hunkText(hunk))
    const answer = await choose(
      reader,
      `Restore ${change.path}? [y]es, [n]o, [h]unk by hunk${change.conflict ? ' (default no: changed since)' : ''}: `,
      ['y', 'n', 'h']
    )
    if (answer === null)
      return { approvalId: item.id, outcome: 'reject', scope: 'call', reason: 'No answer: the input ended.' }
    if (answer === 'y') changes.push({ changeId: change.id })
    else if (answer === 'n') changes.push({ changeId: change.id, acceptedHunks: [] })
    else changes.push({ changeId: change.id, acceptedHunks: await pickHunks(change, reader, out) })
  }
  const any = changes.some((change) => change.acceptedHunks === undefined || change.acceptedHunks.length > 0)
  return any
    ? { approvalId: item.id, outcome: 'approve', scope: 'call', changes }
    : { approvalId: item.id, outcome: 'reject', scope: 'call' }
}

async function pickHunks(change: ChangeView, reader: LineReader, out: (text: string) => void): Promise<string[]> {
  const accepted: string[] = []
  for (const [index, hunk] of change.hunks.entries()) {
    out(`\n${change.path}, hunk ${index + 1} of ${change.hunks.length}:\n${hunkText(hunk)}`)
    if ((await choose(reader, 'Restore this hunk? [y]es, [n]o: ', ['y', 'n'])) === 'y') accepted.push(hunk.id)
  }
  return accepted
}

async function choose(reader: LineReader, prompt: string, options: readonly string[]): Promise<string | null> {
  for (;;) {
    const line = await reader.ask(prompt)
    if (line === null) return null
    const answer = line.trim().toLowerCase().slice(0, 1)
    if (options.includes(answer)) return answer
  }
}

const hunkText = (hunk: ChangeView['hunks'][number]): string => {
  const shown = displayCounts(hunk)
  return `@@ -${hunk.oldStart},${shown.oldLines} +${hunk.newStart},${shown.newLines} @@\n${displayRows(hunk).join('\n')}\n`
}

/** The review's answer is written in the background: waits until none of its changes is still proposed. */
async function settled(services: AgentServices, taskId: string, ids: readonly string[]): Promise<ChangeView[]> {
  for (let round = 0; ; round++) {
    const changes = services.edits.list(taskId).filter((change) => ids.includes(change.id))
    if (changes.every((change) => change.status !== 'proposed') || round > 200) return changes
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
