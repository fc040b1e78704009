import type { ReactNode } from 'react'
import { act } from '../act'
import { createRoot, type Root } from 'react-dom/client'
import type { ModusClient } from '../../../src/shared/contract'
import { ClientProvider } from '../../../src/renderer/src/client/client-context'

export async function mount(
  node: ReactNode,
  client: ModusClient
): Promise<{ container: HTMLElement; unmount(): void }> {
  const container = document.createElement('div')
  document.body.appendChild(container)
  let root!: Root
  await act(async () => {
    root = createRoot(container)
    root.render(<ClientProvider client={client}>{node}</ClientProvider>)
  })
  return {
    container,
    unmount: () => {
      act(() => root.unmount())
      container.remove()
    }
  }
}

/** A button by its accessible name (aria-label, else its text), exactly. */
export function button(scope: ParentNode, name: string): HTMLButtonElement {
  const found = [...scope.querySelectorAll('button')].find(
    (candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent?.trim()) === name
  )
  if (!found)
    throw new Error(
      `no button "${name}" in: ${[...scope.querySelectorAll('button')].map((b) => b.textContent).join(' | ')}`
    )
  return found
}

export const click = (element: HTMLElement): Promise<void> => act(async () => element.click())

export async function typeInto(
  element: HTMLTextAreaElement | HTMLInputElement | HTMLSelectElement,
  value: string
): Promise<void> {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')!.set!
  await act(async () => {
    setter.call(element, value)
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
  })
}

export const press = (target: Element, key: string, init: KeyboardEventInit = {}): Promise<void> =>
  act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))
  })

/** Lets pending promises (client requests) and their state updates settle. */
export const settle = (): Promise<void> => act(async () => new Promise((resolve) => setTimeout(resolve, 0)))
