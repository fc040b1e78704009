import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-write'

const TrustFile = z.object({
  /** Real paths of workspaces, with the user's answer. */
  workspaces: z.record(z.string(), z.object({ trusted: z.boolean(), at: z.number() }))
})
type TrustFile = z.infer<typeof TrustFile>

/**
 * The user's answer to "trust this workspace?", per folder. A cloned repository is untrusted input:
 * until trusted, auto-approve and allow rules from its own files do not apply.
 */
export interface TrustStore {
  isTrusted(root: string): boolean
  /** True once the user answered for this folder, either way: the prompt is shown once. */
  hasAnswered(root: string): boolean
  set(root: string, trusted: boolean): Promise<void>
}

export function createTrustStore(dataDir: string): TrustStore {
  const file = join(dataDir, 'trusted-workspaces.json')
  // Read once at start (synchronous: the policy asks on every tool call); a damaged file trusts nothing.
  let state: TrustFile = load(file)
  return {
    isTrusted: (root) => state.workspaces[root]?.trusted === true,
    hasAnswered: (root) => root in state.workspaces,
    async set(root, trusted) {
      state = { workspaces: { ...state.workspaces, [root]: { trusted, at: Date.now() } } }
      await writeFileAtomic(file, JSON.stringify(state, null, 2))
    }
  }
}

function load(file: string): TrustFile {
  try {
    const parsed = TrustFile.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : { workspaces: {} }
  } catch {
    return { workspaces: {} }
  }
}
