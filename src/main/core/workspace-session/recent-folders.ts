import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-write'

const RecentFile = z.object({ folders: z.array(z.string()) })
const MAX_RECENT = 12

/** Recently opened workspace folders, most recent first, kept in the app data dir. */
export interface RecentFolders {
  list(): Promise<string[]>
  remember(folder: string): Promise<void>
}

export function createRecentFolders(dataDir: string): RecentFolders {
  const file = join(dataDir, 'recent-folders.json')
  const list = async (): Promise<string[]> => {
    const text = await fs.readFile(file, 'utf8').catch(() => null)
    if (text === null) return []
    try {
      const parsed = RecentFile.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data.folders : []
    } catch {
      return []
    }
  }
  return {
    list,
    async remember(folder) {
      const folders = [folder, ...(await list()).filter((f) => f !== folder)].slice(0, MAX_RECENT)
      await writeFileAtomic(file, JSON.stringify({ folders }, null, 2))
    }
  }
}
