import { isAbsolute, resolve } from 'node:path'
import { readHookRun, type HookVerdict } from '../../../shared/hooks/output'
import { decideWithHooks, type NamedVerdict } from '../../../shared/hooks/decide'
import {
  DEFAULT_HOOK_TIMEOUT_SEC,
  hookApplies,
  hookName,
  type HookEvent,
  type LoadedHook
} from '../../../shared/hooks/schema'
import { globalHooksFile, projectHookGrants, projectHooksFile, readHooksFile } from './hook-files'
import { runHookProcess } from './hook-runner'
import type { HookPort, HookScope, ToolCallFacts } from '../ports/hook-port'

export type { HookPort, HookReports, HookScope, ToolCallFacts } from '../ports/hook-port'

export interface HookServiceDeps {
  dataDir: string
  env: Record<string, string | undefined>
  /** Whether the user trusts the workspace having seen these hook grants (project hooks run only then). */
  isTrusted: (workspaceRoot: string, hookGrants: readonly string[]) => boolean
}

interface Loaded {
  hooks: LoadedHook[]
  problems: string[]
}

export function createHookService(deps: HookServiceDeps): HookPort {
  /** Read on every use: a hook the user adds or fixes applies to the next call, without a restart. */
  const load = async (workspace: string): Promise<Loaded> => {
    const global = await readHooksFile(globalHooksFile(deps.dataDir), 'global')
    const grants = await projectHookGrants(workspace)
    if (grants.length === 0 || !deps.isTrusted(workspace, grants)) return global
    const project = await readHooksFile(projectHooksFile(workspace), 'project')
    return { hooks: [...global.hooks, ...project.hooks], problems: [...global.problems, ...project.problems] }
  }

  const runAll = async (event: HookEvent, scope: HookScope, input: Record<string, unknown>, tool?: string) => {
    const loaded = await load(scope.workspace)
    const hooks = loaded.hooks.filter((hook) => hook.event === event && hookApplies(hook, scope.mode, tool))
    const answers = await Promise.all(
      hooks.map(async (hook): Promise<NamedVerdict> => {
        const run = await runHookProcess({
          command: hook.command,
          cwd: scope.workspace,
          input: {
            session_id: scope.taskId,
            hook_event_name: event,
            cwd: scope.workspace,
            workspace: scope.workspace,
            mode: scope.mode,
            ...input
          },
          timeoutSec: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SEC,
          env: {
            ...deps.env,
            CLAUDE_PROJECT_DIR: scope.workspace,
            MODUS_PROJECT_DIR: scope.workspace,
            MODUS_HOOK_EVENT: event
          },
          signal: scope.signal
        })
        return { hook: hookName(hook), origin: hook.origin, verdict: readHookRun(event, run) }
      })
    )
    const reports = [
      ...loaded.problems.map((problem) => `Hooks: ${problem}`),
      ...answers.flatMap((a) =>
        a.verdict.kind === 'problem' ? [`The ${a.origin} ${event} hook '${a.hook}' ${a.verdict.problem}.`] : []
      )
    ]
    return { answers, problems: loaded.problems, reports }
  }

  const toolInput = (workspace: string, call: ToolCallFacts) => {
    const params = (call.params ?? {}) as Record<string, unknown>
    // Claude Code's file tools name the file `file_path`, absolute: given beside Modus's own `path`.
    const path = typeof params.path === 'string' ? params.path : undefined
    return {
      ...params,
      ...(path !== undefined && !('file_path' in params)
        ? { file_path: isAbsolute(path) ? path : resolve(workspace, path) }
        : {})
    }
  }

  return {
    async preToolUse(scope, call, policy) {
      // What the policy denies stays denied: no hook is asked.
      if (policy.decision === 'deny') return { verdict: policy, reports: [] }
      const input = {
        tool_name: call.tool,
        tool_input: toolInput(scope.workspace, call),
        tool_use_id: call.callId,
        policy: { decision: policy.decision, rule: policy.rule, reason: policy.reason }
      }
      const { answers, problems, reports } = await runAll('PreToolUse', scope, input, call.tool)
      // A hooks file that cannot be read may hold a guard that did not run: the call asks.
      const fileProblem: NamedVerdict[] = problems.map((problem) => ({
        hook: 'hooks file',
        origin: 'configured',
        verdict: { kind: 'problem', problem: `cannot be used (${problem})` }
      }))
      return { verdict: decideWithHooks(policy, [...fileProblem, ...answers]), reports }
    },
    async postToolUse(scope, call, response) {
      const input = {
        tool_name: call.tool,
        tool_input: toolInput(scope.workspace, call),
        tool_use_id: call.callId,
        tool_response: { text: response.text, is_error: response.isError }
      }
      const { answers, reports } = await runAll('PostToolUse', scope, input, call.tool)
      return { notes: answers.flatMap((a) => noteFrom(a, 'PostToolUse')), reports }
    },
    async userPromptSubmit(scope, prompt) {
      const { answers, reports } = await runAll('UserPromptSubmit', scope, { prompt })
      const blocked = answers.find((a) => a.verdict.kind === 'block')
      return {
        ...(blocked?.verdict.kind === 'block'
          ? {
              blocked: `The ${blocked.origin} UserPromptSubmit hook '${blocked.hook}' blocked this message: ${blocked.verdict.reason}`
            }
          : {}),
        context: answers.flatMap((a) => noteFrom(a, 'UserPromptSubmit')),
        reports
      }
    },
    async stop(scope, facts) {
      const { answers, reports } = await runAll('Stop', scope, {
        stop_hook_active: facts.stopHookActive,
        result: facts.result
      })
      const block = answers.find((a) => a.verdict.kind === 'block')
      return {
        ...(block?.verdict.kind === 'block'
          ? { keepGoing: `The Stop hook '${block.hook}' did not let the task finish: ${block.verdict.reason}` }
          : {}),
        reports
      }
    }
  }
}

/** A hook's text for the model: its note, or (PostToolUse, as in Claude Code) the reason it "blocked". */
function noteFrom(answer: NamedVerdict, event: HookEvent): string[] {
  const verdict: HookVerdict = answer.verdict
  const text =
    verdict.kind === 'block' && event === 'PostToolUse' ? verdict.reason : 'note' in verdict ? verdict.note : undefined
  return text ? [`[${event} hook '${answer.hook}']: ${text}`] : []
}
