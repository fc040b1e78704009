import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { writeFileAtomic } from '../fs/atomic-write'

const TrustRecord = z.object({
  trusted: z.boolean(),
  at: z.number(),
  /** The grants the user saw when answering (one item each, sorted); absent in older files. */
  grants: z.array(z.string()).default([]),
  /** sha256 of `grants`, the identity of what was trusted. */
  grantsHash: z.string().optional()
})
export type TrustRecord = z.infer<typeof TrustRecord>

const TrustFile = z.object({
  /** Real paths of workspaces, with the user's answer. */
  workspaces: z.record(z.string(), TrustRecord)
})
type TrustFile = z.infer<typeof TrustFile>

/**
 * The user's answer to "trust this workspace?", per folder, tied to the grants they saw. A cloned
 * repository is untrusted input: until trusted, auto-approve and allow rules from its own files do
 * not apply, and a grant the user has not seen (a modes file added or widened later) suspends the
 * trust until they answer again.
 */
export interface TrustStore {
  /** Trusted, and every grant the project makes now is one the user saw when trusting it. */
  isTrusted(root: string, currentGrants: readonly string[]): boolean
  /** Grants made now that the user did not see when trusting (empty when not trusted). */
  unseenGrants(root: string, currentGrants: readonly string[]): string[]
  /** True once the user answered for this folder, either way. */
  hasAnswered(root: string): boolean
  set(root: string, trusted: boolean, grantsSeen: readonly string[]): Promise<void>
  /** Grants the user made themselves (e.g. a mode saved in the app) join what they have seen. */
  addSeenGrants(root: string, grants: readonly string[]): Promise<void>
  /** Why the trust file could not be used; empty when it is valid or absent. */
  problems(): string[]
  /** Every recorded answer, newest first. */
  list(): Array<{ root: string } & TrustRecord>
  /** Drops the answer for a folder: it is asked about again. */
  forget(root: string): Promise<void>
}

export const hashGrants = (grants: readonly string[]): string =>
  createHash('sha256')
    .update(JSON.stringify([...new Set(grants)].sort()))
    .digest('hex')

export function createTrustStore(dataDir: string): TrustStore {
  const file = join(dataDir, 'trusted-workspaces.json')
  // Read once at start (synchronous: the policy asks on every tool call). A damaged file trusts
  // nothing and is kept as it is: answers are refused until the user fixes or removes it.
  const loaded = load(file)
  let state: TrustFile = loaded.state
  const problems = loaded.problems

  const unseenGrants = (root: string, current: readonly string[]): string[] => {
    const record = state.workspaces[root]
    if (!record?.trusted) return []
    const seen = new Set(record.grants)
    return current.filter((grant) => !seen.has(grant))
  }
  const write = async (root: string, record: Omit<TrustRecord, 'grantsHash'>): Promise<void> => {
    if (problems.length > 0) {
      throw new UserFacingError('trust_file_broken', `The answer was not saved: ${problems.join(' ')}`)
    }
    const grants = [...new Set(record.grants)].sort()
    const next = { workspaces: { ...state.workspaces, [root]: { ...record, grants, grantsHash: hashGrants(grants) } } }
    await writeFileAtomic(file, JSON.stringify(next, null, 2))
    state = next
  }
  return {
    isTrusted: (root, current) => state.workspaces[root]?.trusted === true && unseenGrants(root, current).length === 0,
    unseenGrants,
    hasAnswered: (root) => root in state.workspaces,
    set: (root, trusted, grantsSeen) => write(root, { trusted, at: Date.now(), grants: [...grantsSeen] }),
    async addSeenGrants(root, grants) {
      const record = state.workspaces[root]
      if (!record?.trusted) return
      await write(root, { ...record, grants: [...record.grants, ...grants] })
    },
    problems: () => [...problems],
    list: () =>
      Object.entries(state.workspaces)
        .map(([root, record]) => ({ root, ...record }))
        .sort((a, b) => b.at - a.at),
    async forget(root) {
      if (problems.length > 0)
        throw new UserFacingError('trust_file_broken', `Nothing was changed: ${problems.join(' ')}`)
      if (!(root in state.workspaces)) return
      const { [root]: _dropped, ...rest } = state.workspaces
      const next = { workspaces: rest }
      await writeFileAtomic(file, JSON.stringify(next, null, 2))
      state = next
    }
  }
}

function load(file: string): { state: TrustFile; problems: string[] } {
  const empty = { workspaces: {} }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: empty, problems: [] }
    return { state: empty, problems: [`${file} cannot be read (${(error as Error).message}).`] }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { state: empty, problems: [`${file} is not valid JSON; it is kept as it is until you fix or remove it.`] }
  }
  const parsed = TrustFile.safeParse(raw)
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') || 'the top level'
    return {
      state: empty,
      problems: [`${file} is invalid at ${where}; it is kept as it is until you fix or remove it.`]
    }
  }
  return { state: parsed.data, problems: [] }
}
