import { useEffect, useState } from 'react'
import { useClient } from '../../client/client-context'
import { useReviewStore, type Drift } from './review-store'

const CHECK_EVERY_MS = 2000

/**
 * While a review waits, asks the core every few seconds (and when the window regains focus) whether
 * the files changed on disk since the proposal, so a conflict shows before the user accepts.
 */
export function useDrift(changeIds: readonly string[], enabled: boolean): Record<string, Drift> {
  const client = useClient()
  const [drift, setDrift] = useState<Record<string, Drift>>({})
  const key = changeIds.join('\n')
  useEffect(() => {
    if (!enabled || key === '') return
    let live = true
    const check = async (): Promise<void> => {
      const found = await useReviewStore.getState().checkDrift(client, key.split('\n'))
      if (live && found) setDrift(found)
    }
    void check()
    const timer = setInterval(() => void check(), CHECK_EVERY_MS)
    const onFocus = (): void => void check()
    window.addEventListener('focus', onFocus)
    return () => {
      live = false
      clearInterval(timer)
      window.removeEventListener('focus', onFocus)
    }
  }, [client, key, enabled])
  return drift
}
