import type { ReactNode } from 'react'
import type { BrowserPage } from '../approvals/approval-model'

/** The page a browser launch asks to open, with its origin (a page can send away what is typed into it). */
export function BrowserPageField({ page, className }: { page: BrowserPage; className: string }): ReactNode {
  return (
    <dl className={className} aria-label="Page to open">
      <div>
        <dt>Page</dt>
        <dd>
          <code>{page.url}</code>
        </dd>
      </div>
      <div>
        <dt>Origin</dt>
        <dd>
          <code>{page.origin}</code>
        </dd>
      </div>
    </dl>
  )
}
