import { useEffect, useState } from 'react'

/** At this window width and below, two code columns are too narrow to read: the review goes inline. */
export const NARROW_REVIEW_QUERY = '(max-width: 1024px)'

/** Whether the window is narrow now; follows resizes. */
export function useNarrowWindow(query = NARROW_REVIEW_QUERY): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(query).matches ?? false)
  useEffect(() => {
    const media = window.matchMedia?.(query)
    if (!media) return
    const update = () => setNarrow(media.matches)
    update()
    media.addEventListener('change', update)
    return () => media.removeEventListener('change', update)
  }, [query])
  return narrow
}
