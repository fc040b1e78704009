import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { computeOffsets, isAtBottom, visibleRange } from './windowing'

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
 * touches a few dozen nodes.
 */
export function VirtualList<T>(props: VirtualListProps<T>): ReactNode {
  const { items, getKey, estimateHeight, overscanPx = 600 } = props
  const scroller = useRef<HTMLDivElement>(null)
  const heights = useRef(new Map<string, number>())
  const [measureVersion, setMeasureVersion] = useState(0)
  const [viewport, setViewport] = useState({ top: 0, height: 800 })
  const following = useRef(true)

  const offsets = useMemo(
    () => computeOffsets(items.length, (i) => heights.current.get(getKey(items[i])) ?? estimateHeight(items[i])),
    // measureVersion: heights changed in the ref.
    [items, getKey, estimateHeight, measureVersion]
  )
  const total = offsets[items.length]
  const range = visibleRange(offsets, viewport.top, viewport.height, overscanPx)

  const observer = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return null
    return new ResizeObserver((entries) => {
      let changed = false
      for (const entry of entries) {
        const element = entry.target as HTMLElement
        const key = element.dataset.key
        if (!key) continue
        const height = element.offsetHeight
        if (height > 0 && heights.current.get(key) !== height) {
          heights.current.set(key, height)
          changed = true
        }
      }
      if (changed) setMeasureVersion((v) => v + 1)
    })
  }, [])

  const measureRef = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element) return
      const key = element.dataset.key!
      if (element.offsetHeight > 0 && heights.current.get(key) !== element.offsetHeight) {
        heights.current.set(key, element.offsetHeight)
      }
      observer?.observe(element)
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
    }
  }, [observer])

  // Follow new output while the user is at the bottom; leave them alone once they scroll up.
  useLayoutEffect(() => {
    const element = scroller.current
    if (!element || !props.followOutput || !following.current) return
    if (Math.abs(element.scrollTop + element.clientHeight - total) > 1) {
      element.scrollTop = total
      setViewport({ top: element.scrollTop, height: element.clientHeight || 800 })
    }
  }, [total, props.followOutput])

  const onScroll = (): void => {
    const element = scroller.current
    if (!element) return
    following.current = isAtBottom(element.scrollTop, element.clientHeight, total)
    setViewport({ top: element.scrollTop, height: element.clientHeight || 800 })
  }

  const rendered: ReactNode[] = []
  for (let i = range.start; i < range.end; i++) {
    const item = items[i]
    const key = getKey(item)
    rendered.push(
      <div
        key={key}
        data-key={key}
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
    <div ref={scroller} className={props.className} onScroll={onScroll} tabIndex={0} aria-label={props.label} role="list">
      <div style={{ position: 'relative', height: total }}>{rendered}</div>
    </div>
  )
}
