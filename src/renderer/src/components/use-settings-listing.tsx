import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { Channel, RequestInput, RequestOutput } from '../../../shared/contract'
import { useClient } from '../client/client-context'

/** The channels that read a listing without input. */
type ListingChannel = { [C in Channel]: Record<string, never> extends RequestInput<C> ? C : never }[Channel]

export interface SettingsListing<T> {
  /** What the core listed; null until it answered. */
  listing: T | null
  setListing(listing: T): void
  /** Why the core refused the listing or an action on it. */
  error: string | null
  setError(error: string | null): void
  /** Says what an action did, in the status line, and gives it the keyboard (the control may be gone). */
  announce(message: string): void
  /** The status line `announce` speaks in: placed where the section shows it. */
  statusLine: ReactNode
}

/**
 * A Settings section that shows what the core lists on `channel` (read again whenever a value in
 * `reloadOn` changes) and acts on it: the listing, its error, and a status line for what was done.
 */
export function useSettingsListing<C extends ListingChannel>(
  channel: C,
  reloadOn: readonly unknown[]
): SettingsListing<RequestOutput<C>> {
  const client = useClient()
  const [listing, setListing] = useState<RequestOutput<C> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const status = useRef<HTMLParagraphElement>(null)
  const reloadKey = JSON.stringify(reloadOn)

  useEffect(() => {
    void client.request(channel, {} as RequestInput<C>).then((result) => {
      if (result.ok) setListing(result.value)
      else setError(result.error.message)
    })
  }, [client, channel, reloadKey])

  const announce = (message: string): void => {
    setAnnouncement(message)
    status.current?.focus()
  }
  const statusLine = (
    <p ref={status} className="note" role="status" tabIndex={-1}>
      {announcement}
    </p>
  )
  return { listing, setListing, error, setError, announce, statusLine }
}
