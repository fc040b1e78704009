import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { TerminalCommandInfo } from '../../../shared/contract/terminal'
import { createOutputCapture, type OutputCapture } from './output-capture'
import { readOutputFile, type OutputPage, type OutputReadRequest } from './output-reader'
import { ARTIFACT_ID, commandOutputDir } from './paths'
import type { CommandRecord } from './terminal-registry'

export interface CommandArtifactsDeps {
  /** App data dir: saved outputs go to `tasks/<taskId>/command-output/`. */
  dataDir: string
  /** Preview size for the model, in characters (30 % head, 70 % tail). */
  previewChars: number
  maxArtifactBytes: number
}

/** The saved outputs of commands: each command's capture file, named by its artifact id. */
export interface CommandArtifacts {
  /** A new capture file for a task's command; `onPressure` pauses the shell while the disk catches up. */
  create(taskId: string, onPressure: (paused: boolean) => void): Promise<{ artifactId: string; capture: OutputCapture }>
  /** The command writing the artifact, so reads wait for its output to reach the file. */
  track(taskId: string, artifactId: string, record: CommandRecord): void
  /** Pages or searches a saved output of the task; says whether its command still runs. */
  read(
    taskId: string,
    artifactId: string,
    request: OutputReadRequest
  ): Promise<OutputPage & { command: TerminalCommandInfo | null }>
}

/** Finished commands older than the last 500 are forgotten in memory; their files stay readable. */
const TRACKED_COMMANDS = 500

export function createCommandArtifacts(deps: CommandArtifactsDeps): CommandArtifacts {
  const tracked = new Map<string, CommandRecord>()
  let counter = 0
  const newArtifactId = (): string => `cmd-${Date.now()}${String(++counter % 1000).padStart(3, '0')}.txt`

  function prune(): void {
    if (tracked.size <= TRACKED_COMMANDS) return
    for (const [key, record] of tracked) {
      if (tracked.size <= TRACKED_COMMANDS) break
      if (record.info.endedAt !== null) tracked.delete(key)
    }
  }

  return {
    async create(taskId, onPressure) {
      const dir = commandOutputDir(deps.dataDir, taskId)
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const artifactId = newArtifactId()
      const capture = createOutputCapture({
        filePath: join(dir, artifactId),
        headChars: Math.floor(deps.previewChars * 0.3),
        tailChars: Math.ceil(deps.previewChars * 0.7),
        maxFileBytes: deps.maxArtifactBytes,
        onPressure
      })
      return { artifactId, capture }
    },
    track(taskId, artifactId, record) {
      tracked.set(`${taskId}/${artifactId}`, record)
      prune()
    },
    async read(taskId, artifactId, request) {
      if (!ARTIFACT_ID.test(artifactId)) {
        throw new Error(
          `Invalid artifact_id '${artifactId.slice(0, 80)}': expected the id execute_command gave, like cmd-1732250000000001.txt.`
        )
      }
      const path = join(commandOutputDir(deps.dataDir, taskId), artifactId)
      if (!existsSync(path)) throw new Error(`No saved output with artifact_id ${artifactId} in this task.`)
      const record = tracked.get(`${taskId}/${artifactId}`)
      if (record && record.info.endedAt !== null) await record.settled
      else if (record) await record.capture.sync()
      const page = await readOutputFile(path, request)
      const saveStopped = record?.capture.preview().saveStopped
      return { ...page, ...(saveStopped && { saveStopped }), command: record ? { ...record.info } : null }
    }
  }
}
