import { dirname } from 'node:path'

/** Which of the two places Modus writes to a failed write was in: the advice differs. */
export type WritePlace = 'data dir' | 'workspace'

/** Error codes that mean "the disk (or the user's quota) has no room", not "Modus did something wrong". */
const OUT_OF_SPACE = new Set(['ENOSPC', 'EDQUOT'])

export const isOutOfSpace = (error: unknown): boolean =>
  OUT_OF_SPACE.has((error as NodeJS.ErrnoException | null)?.code ?? '')

/**
 * A failed write said in words: which file, whether it is in the app data dir or the workspace,
 * and what the user can do. A bare `ENOSPC` tells nobody which disk to clean.
 */
export function describeWriteFailure(error: unknown, path: string, place: WritePlace): string {
  const code = (error as NodeJS.ErrnoException | null)?.code
  const where = place === 'data dir' ? "Modus's app data dir" : 'the workspace'
  if (code && OUT_OF_SPACE.has(code)) {
    const fix =
      place === 'data dir'
        ? `Free space on the disk that holds ${dirname(path)} (old tasks can be deleted from History), or point MODUS_DATA_DIR at a disk with room.`
        : `Free space on the disk that holds ${dirname(path)}, then ask again.`
    const what = code === 'EDQUOT' ? 'your disk quota is used up' : 'the disk is full'
    return `Could not write ${path} (in ${where}): ${what} (${code}). ${fix}`
  }
  const reason = error instanceof Error ? error.message : String(error)
  return `Could not write ${path} (in ${where}): ${reason}`
}
