import { promises as fs } from 'node:fs'
import { dirname, join } from 'node:path'
import { parse, stringify } from 'yaml'
import {
  compileMatcher,
  hookGrant,
  hooksOf,
  HooksFile,
  HOOK_EVENTS,
  type HookConfig,
  type HookEvent,
  type HookOrigin,
  type LoadedHook
} from '../../../shared/hooks/schema'
import { writeFileAtomic } from '../fs/atomic-write'

export const globalHooksFile = (dataDir: string): string => join(dataDir, 'hooks.yaml')
export const projectHooksFile = (workspaceRoot: string): string => join(workspaceRoot, '.modus', 'hooks.yaml')

export interface HookFileRead {
  hooks: LoadedHook[]
  /** Why the file (or a hook in it) cannot be used as written; a file with problems fails closed. */
  problems: string[]
}

/** One hooks file: absent → no hooks; unreadable or invalid → a problem (its tool calls then ask). */
export async function readHooksFile(path: string, origin: HookOrigin): Promise<HookFileRead> {
  let text: string
  try {
    text = await fs.readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { hooks: [], problems: [] }
    return { hooks: [], problems: [`${path} cannot be read (${(error as Error).message})`] }
  }
  let raw: unknown
  try {
    raw = parse(text) ?? {}
  } catch (error) {
    return { hooks: [], problems: [`${path} is not valid YAML (${(error as Error).message.split('\n')[0]})`] }
  }
  const parsed = HooksFile.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return {
      hooks: [],
      problems: [`${path} is invalid at ${issue?.path.join('.') || 'the top level'}: ${issue?.message ?? 'invalid'}`]
    }
  }
  const hooks = hooksOf(parsed.data, origin, path)
  const problems = hooks.flatMap((hook) => {
    const matcher = compileMatcher(hook.matcher)
    return matcher.ok ? [] : [`${path}: ${hook.event} hook \`${hook.command}\`: ${matcher.error}`]
  })
  return { hooks, problems }
}

/** What a project's hooks file grants, one item per hook, for the trust prompt and the trust record. */
export async function projectHookGrants(workspaceRoot: string): Promise<string[]> {
  const read = await readHooksFile(projectHooksFile(workspaceRoot), 'project')
  // A file that cannot be read runs nothing; it still changes what the folder grants, so trust asks again.
  return [
    ...new Set([
      ...read.hooks.map(hookGrant),
      ...read.problems.map((problem) => `Hooks file with a problem: ${problem}`)
    ])
  ].sort()
}

/** Adds hooks to a file (created when absent), keeping the hooks already there. */
export async function appendHooks(path: string, add: HooksFile): Promise<number> {
  const current = await readHooksFile(path, 'global')
  if (current.problems.length > 0) throw new Error(`Not changed: ${current.problems.join('; ')}`)
  const existing = await fs
    .readFile(path, 'utf8')
    .then((text) => HooksFile.parse(parse(text) ?? {}))
    .catch(() => HooksFile.parse({}))
  let added = 0
  const merged: HooksFile = { hooks: { ...existing.hooks } }
  for (const [event, hooks] of Object.entries(add.hooks) as Array<
    [keyof HooksFile['hooks'], HooksFile['hooks'][keyof HooksFile['hooks']]]
  >) {
    const list = [...(merged.hooks[event] ?? [])]
    for (const hook of hooks ?? []) {
      if (list.some((h) => h.command === hook.command && h.matcher === hook.matcher)) continue
      list.push(hook)
      added++
    }
    merged.hooks[event] = list
  }
  await fs.mkdir(dirname(path), { recursive: true })
  await writeFileAtomic(path, stringify(merged))
  return added
}

/**
 * Replaces a hooks file's hooks with this list (each event's hooks in the list's order). A file
 * that cannot be read as hooks is left as it is: the user's hand-written file is never lost to a save.
 */
export async function writeHooks(path: string, hooks: ReadonlyArray<HookConfig & { event: HookEvent }>): Promise<void> {
  const current = await readHooksFile(path, 'global')
  // A file that parsed has its hooks listed (a bad matcher is the hook's problem, which this save may fix).
  if (current.hooks.length === 0 && current.problems.length > 0)
    throw new Error(`Not saved, so the file is kept as it is: ${current.problems.join('; ')}`)
  const file: HooksFile = { hooks: {} }
  for (const event of HOOK_EVENTS) {
    const list = hooks.filter((hook) => hook.event === event).map(({ event: _grouped, ...config }) => config)
    if (list.length > 0) file.hooks[event] = list
  }
  await writeFileAtomic(path, stringify(file))
}
