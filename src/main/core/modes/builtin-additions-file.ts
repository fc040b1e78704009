import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-write'
import type { BuiltInAdditions } from '../../../shared/modes/builtin-additions'

const Lists = z.object({
  commandAllow: z.array(z.string().min(1)).optional(),
  sandboxDomains: z.array(z.string().min(1)).optional(),
  browserAllow: z.array(z.string().min(1)).optional()
})
const AdditionsFile = z.object({ modes: z.record(z.string(), Lists) })

/** The user's additions to built-in modes, by slug, in the data dir (`builtin-additions.json`). */
export interface BuiltInAdditionsFile {
  read(): Promise<Record<string, BuiltInAdditions>>
  add(slug: string, added: BuiltInAdditions): Promise<void>
  /** Drops the additions of one built-in (reset to the built-in as shipped). */
  clear(slug: string): Promise<void>
}

export function createBuiltInAdditionsFile(dataDir: string): BuiltInAdditionsFile {
  const file = join(dataDir, 'builtin-additions.json')
  // A missing or damaged file adds nothing (fail closed: the built-in as shipped).
  const read = async (): Promise<Record<string, BuiltInAdditions>> => {
    try {
      const parsed = AdditionsFile.safeParse(JSON.parse(await fs.readFile(file, 'utf8')))
      return parsed.success ? parsed.data.modes : {}
    } catch {
      return {}
    }
  }
  const write = (modes: Record<string, BuiltInAdditions>) => writeFileAtomic(file, JSON.stringify({ modes }, null, 2))
  return {
    read,
    async add(slug, added) {
      const modes = await read()
      const current = modes[slug] ?? {}
      const merge = (a?: string[], b?: string[]) =>
        a?.length || b?.length ? [...new Set([...(a ?? []), ...(b ?? [])])] : undefined
      modes[slug] = {
        commandAllow: merge(current.commandAllow, added.commandAllow),
        sandboxDomains: merge(current.sandboxDomains, added.sandboxDomains),
        browserAllow: merge(current.browserAllow, added.browserAllow)
      }
      await write(modes)
    },
    async clear(slug) {
      const modes = await read()
      if (!(slug in modes)) return
      delete modes[slug]
      await write(modes)
    }
  }
}
