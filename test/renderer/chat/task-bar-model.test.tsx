// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TaskBar } from '../../../src/renderer/src/features/chat/TaskBar'
import { emptyTaskView } from '../../../src/renderer/src/common/chat/task-view'
import { useProviderModelsStore } from '../../../src/renderer/src/common/settings/provider-models-store'
import { render, waitFor, type Rendered } from '../modes/dom'

// The model picker itself is checked in e2e/settings.spec.ts (the SDKs do not run in a DOM test environment).

let view: Rendered | undefined

beforeEach(() => useProviderModelsStore.setState({ listings: {} }))
afterEach(() => {
  view?.unmount()
  view = undefined
})

describe('task bar', () => {
  it('shows the task’s model with its retirement date from the table, or from what the provider listed', async () => {
    const retiring = { ...emptyTaskView(), model: 'claude-sonnet-4-5-20250929' }
    view = await render(<TaskBar view={retiring} />)
    expect(view.container.querySelector('.task-model')!.textContent).toBe(
      'claude-sonnet-4-5-20250929 · retires 2026-11-30'
    )
    view.unmount()

    view = await render(<TaskBar view={{ ...emptyTaskView(), model: 'fake-model-unknown' }} />)
    expect(view.container.querySelector('.task-model')!.textContent).toBe('fake-model-unknown')
    useProviderModelsStore.getState().setListing('anthropic ', {
      state: 'listed',
      models: [{ id: 'fake-model-unknown', retiresOn: '2027-01-31', known: false, contextWindow: null }]
    })
    await waitFor(
      () => view!.container.querySelector('.task-model')!.textContent === 'fake-model-unknown · retires 2027-01-31'
    )
  })
})
