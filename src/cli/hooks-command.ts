import { promises as fs } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { importClaudeHooks } from '../shared/hooks/claude-import'
import { hookGrant, hookName } from '../shared/hooks/schema'
import { resolveDataDir } from '../main/core/app-paths'
import {
  appendHooks,
  globalHooksFile,
  projectHookGrants,
  projectHooksFile,
  readHooksFile
} from '../main/core/hooks/hook-files'
import { createTrustStore } from '../main/core/workspace-session/trust-store'
import { fixedTrust } from '../main/core/trust/trust-service'
import type { HooksArgs } from './args'
import type { CliIo } from './cli-io'
import { workspaceOf } from './run-command'
import { visible } from './visible'

/** `modus hooks list|import`. */
export async function hooksCommand(args: HooksArgs, io: CliIo): Promise<number> {
  const workspace = await workspaceOf(args, io)
  if (!workspace) return 2
  const dataDir = resolveDataDir({ env: io.env, platform: process.platform, home: homedir() })
  return args.action === 'list' ? listHooks(args, io, dataDir, workspace) : importHooks(args, io, dataDir, workspace)
}

async function listHooks(args: HooksArgs, io: CliIo, dataDir: string, workspace: string): Promise<number> {
  const out = (text: string) => io.stdout.write(visible(text))
  const global = await readHooksFile(globalHooksFile(dataDir), 'global')
  const project = await readHooksFile(projectHooksFile(workspace), 'project')
  // The same answer `modus run` gets: the CLI trusts a folder's grants only with --trust.
  const projectRuns = fixedTrust(args.trust).inForce('hooks', workspace, await projectHookGrants(workspace))
  for (const problem of [...global.problems, ...project.problems])
    io.stderr.write(visible(`modus: warning: ${problem}\n`))
  if (global.hooks.length + project.hooks.length === 0) {
    out('No hooks.\n')
    return 0
  }
  for (const hook of global.hooks) out(`global   ${hook.event}: ${hookName(hook)} — ${hookGrant(hook)}\n`)
  for (const hook of project.hooks)
    out(
      `project  ${hook.event}: ${hookName(hook)} — ${hookGrant(hook)}${projectRuns ? '' : ' (not run: the workspace is not trusted)'}\n`
    )
  return 0
}

/**
 * Claude Code's hooks, imported on the user's request: the import is their own grant. Into the
 * user's hooks file by default (no trust needed); with --project into the workspace's, where a
 * trusted workspace counts them as seen (an untrusted one lists them in its trust prompt).
 */
async function importHooks(args: HooksArgs, io: CliIo, dataDir: string, workspace: string): Promise<number> {
  const from = args.from ? resolve(io.cwd, args.from) : join(workspace, '.claude', 'settings.json')
  let raw: unknown
  try {
    raw = JSON.parse(await fs.readFile(from, 'utf8'))
  } catch (error) {
    io.stderr.write(visible(`modus: cannot read ${from}: ${error instanceof Error ? error.message : String(error)}\n`))
    return 1
  }
  const imported = importClaudeHooks(raw)
  if (!imported.ok) {
    io.stderr.write(visible(`modus: ${from}: ${imported.error}\n`))
    return 1
  }
  const target = args.project ? projectHooksFile(workspace) : globalHooksFile(dataDir)
  const grantsBefore = args.project ? await projectHookGrants(workspace) : []
  const added = await appendHooks(target, imported.value.file)
  if (args.project) {
    const trust = createTrustStore(dataDir)
    const own = (await projectHookGrants(workspace)).filter((grant) => !grantsBefore.includes(grant))
    if (own.length > 0 && trust.isTrusted(workspace, [])) await trust.addSeenGrants(workspace, own)
  }
  const out = (text: string) => io.stdout.write(visible(text))
  out(`Imported ${added} hook${added === 1 ? '' : 's'} from ${from} into ${target}.\n`)
  for (const skipped of imported.value.skipped) out(`Not imported: ${skipped}\n`)
  return 0
}
