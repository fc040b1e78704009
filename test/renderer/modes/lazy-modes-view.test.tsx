// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { LazyModesView } from '../../../src/renderer/src/features/modes/LazyModesView'
import { render, waitFor } from './dom'

// The editor's chunk cannot be fetched (rebuilt or updated underneath a running window).
vi.mock('../../../src/renderer/src/features/modes/ModesView', () => {
  throw new Error('Failed to fetch dynamically imported module')
})

describe('lazy mode editor', () => {
  it('reports a chunk that fails to load instead of taking the app down', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const view = await render(
      <div>
        <nav>still here</nav>
        <LazyModesView />
      </div>
    )
    const alert = await waitFor(() => view.container.querySelector('[role="alert"]'))
    expect(alert.textContent).toContain('The mode editor could not be loaded')
    expect([...alert.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Try again', 'Reload the app'])
    expect(view.container.textContent).toContain('still here')
    view.unmount()
    errors.mockRestore()
  })
})
