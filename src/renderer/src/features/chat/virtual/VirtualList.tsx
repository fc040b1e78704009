import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { computeOffsets, indexAt, isAtBottom, visibleRange } from './windowing'

interface VirtualListProps<T> {
  items: readonly T[]
  getKey: (item: T) => string
  renderItem: (item: T, index: number) => ReactNode
  /** Height used for items never measured yet. */
  estimateHeight: (item: T) => number
  className?: string
  label: string
  /** Keep the newest item in view while the user sits at the bottom (chat). */
  followOutput?: boolean
  overscanPx?: number
}

/**
 * A windowed list: only the items near the viewport are in the DOM, each positioned from measured
 * heights (a ResizeObserver keeps them current as streamed text grows). Scrolling a 5,000-item list
 * touches a few dozen nodes. When an item above the viewport turns out taller or shorter than its
 * estimate, the scroll position moves by the difference so what the user reads stays put.
 */
export function VirtualList<T>(props: VirtualListProps<T>): ReactNode {
  const { items, getKey, estimateHeight, overscanPx = 600 } = props
  const scroller = useRef<HTMLDivElement>(null)
  const heights = useRef(new Map<string, number>())
  const [measureVersion, setMeasureVersion] = useState(0)
  const [viewport, setViewport] = useState({ top: 0, height: 800 })
  const following = useRef(true)
  const lastTop = useRef(0)
  const scrollFrame = useRef(0)
  const pendingShift = useRef(0)
  const latest = useRef<{ items: readonly T[]; offsets: Float64Array; top: number }>({
    items,
    offsets: new Float64Array(1),
    top: 0
  })

  const offsets = useMemo(
    () => computeOffsets(items.length, (i) => heights.current.get(getKey(items[i])) ?? estimateHeight(items[i])),
    // measureVersion: heights changed in the ref, which the hook cannot see.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [items, getKey, estimateHeight, measureVersion]
  )
  latest.current = { items, offsets, top: viewport.top }
  const total = offsets[items.length]
  const range = visibleRange(offsets, viewport.top, viewport.height, overscanPx)

  const observer = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return null
    const rows = new ResizeObserver((entries) => {
      const { items: current, offsets: known, top } = latest.current
      const firstVisible = indexAt(known, top)
      let changed = false
      for (const entry of entries) {
        const element = entry.target as HTMLElement
        if (!element.isConnected) {
          // A row that left the window reports once more (its size drops to nothing): stop watching it.
          rows.unobserve(element)
          continue
        }
        const key = element.dataset.key
        if (!key) continue
        const height = element.offsetHeight
        const previous = heights.current.get(key)
        if (height > 0 && previous !== height) {
          const index = Number(element.dataset.index)
          // Growth above the first visible row would push the content down: compensate.
          if (index < firstVisible && current[index] !== undefined) {
            pendingShift.current += height - (previous ?? estimateHeight(current[index]))
          }
          heights.current.set(key, height)
          changed = true
        }
      }
      if (changed) setMeasureVersion((v) => v + 1)
    })
    return rows
  }, [estimateHeight])

  // No cleanup returned: Preact keeps one cleanup per ref function, and this one serves every row.
  const measureRef = useCallback(
    (element: HTMLDivElement | null) => {
      if (element) observer?.observe(element)
    },
    [observer]
  )

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    const update = (): void => setViewport({ top: element.scrollTop, height: element.clientHeight || 800 })
    update()
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update)
    resize?.observe(element)
    return () => {
      resize?.disconnect()
      observer?.disconnect()
      cancelAnimationFrame(scrollFrame.current)
    }
  }, [observer])

  // After a re-measure: keep the reading position, or follow new output at the bottom.
  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    if (props.followOutput && following.current) {
      if (Math.abs(element.scrollTop + element.clientHeight - total) > 1) {
        element.scrollTop = total
        lastTop.current = element.scrollTop
        setViewport({ top: element.scrollTop, height: element.clientHeight || 800 })
      }
    } else if (pendingShift.current !== 0) {
      element.scrollTop += pendingShift.current
      lastTop.current = element.scrollTop
      setViewport({ top: element.scrollTop, height: element.clientHeight || 800 })
    }
    pendingShift.current = 0
  }, [total, props.followOutput])

  // One state update per frame however many scroll events arrive. Only the user scrolling up stops
  // following (content growing under a programmatic scroll does not); reaching the bottom resumes it.
  const onScroll = (): void => {
    if (scrollFrame.current) return
    scrollFrame.current = requestAnimationFrame(() => {
      scrollFrame.current = 0
      const element = scroller.current
      if (!element) return
      const top = element.scrollTop
      if (top < lastTop.current - 1) following.current = false
      if (isAtBottom(top, element.clientHeight, element.scrollHeight)) following.current = true
      lastTop.current = top
      setViewport({ top, height: element.clientHeight || 800 })
    })
  }

  const rendered: ReactNode[] = []
  for (let i = range.start; i < range.end; i++) {
    const item = items[i]
    const key = getKey(item)
    rendered.push(
      <div
        key={key}
        data-key={key}
        data-index={i}
        ref={measureRef}
        className="virtual-row"
        role="listitem"
        aria-setsize={items.length}
        aria-posinset={i + 1}
        style={{ position: 'absolute', top: offsets[i], left: 0, right: 0 }}
      >
        {props.renderItem(item, i)}
      </div>
    )
  }

  return (
    <div
      ref={scroller}
      className={props.className}
      onScroll={onScroll}
      tabIndex={0}
      aria-label={props.label}
      role="list"
    >
      <div style={{ position: 'relative', height: total, flexShrink: 0 }}>{rendered}</div>
    </div>
  )
}
