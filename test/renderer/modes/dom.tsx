import type { ReactNode } from 'react'
import { act } from '../act'
import { createRoot, type Root } from 'react-dom/client'
import type { ModusClient } from '../../../src/shared/contract'
import { dispatch } from '../../../src/shared/contract/dispatch'
import { ClientProvider } from '../../../src/renderer/src/client/client-context'

export interface Rendered {
  container: HTMLElement
  unmount(): void
}

export async function render(node: ReactNode, client?: ModusClient): Promise<Rendered> {
  const container = document.createElement('div')
  document.body.appendChild(container)
  let root: Root
  await act(async () => {
    root = createRoot(container)
    root.render(client ? <ClientProvider client={client}>{node}</ClientProvider> : node)
  })
  return {
    container,
    unmount: () => {
      act(() => root.unmount())
      container.remove()
    }
  }
}

/** The control a `<label>` names, as a user finds it. */
export function byLabel<T extends HTMLElement = HTMLInputElement>(scope: ParentNode, text: string | RegExp): T {
  const labels = [...scope.querySelectorAll('label')].filter((label) =>
    typeof text === 'string' ? label.textContent?.trim() === text : text.test(label.textContent ?? '')
  )
  if (labels.length === 0) throw new Error(`no label ${String(text)}`)
  const label = labels[0]
  const control = label.htmlFor
    ? scope.querySelector(`[id="${label.htmlFor}"]`)
    : label.querySelector('input,select,textarea')
  if (!control) throw new Error(`label ${String(text)} names no control`)
  return control as T
}

export function byButton(scope: ParentNode, name: string | RegExp): HTMLButtonElement {
  const found = [...scope.querySelectorAll('button')].find((button) => {
    const label = button.getAttribute('aria-label') ?? button.textContent?.trim() ?? ''
    return typeof name === 'string' ? label === name : name.test(label)
  })
  if (!found) throw new Error(`no button ${String(name)}`)
  return found
}

/** Types into a controlled input the way React listens for it. */
export async function type(
  element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string
): Promise<void> {
  const prototype = Object.getPrototypeOf(element)
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')!.set!
  await act(async () => {
    setter.call(element, value)
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
  })
}

export async function click(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.click()
  })
}

/** Waits for the UI to settle on something (requests to the in-process core are real async work). */
export async function waitFor<T>(probe: () => T | null | undefined | false, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const value = probe()
      if (value) return value
    } catch (error) {
      lastError = error
    }
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20))
    })
  }
  throw lastError instanceof Error ? lastError : new Error('waitFor timed out')
}

/** A client over real core handlers, in process: every payload is parsed as over the wire. */
export function inProcessClient(
  handlers: Record<string, (input: never) => Promise<unknown>>,
  subscribe: ModusClient['subscribe'] = () => () => {}
): ModusClient {
  const full = new Proxy(handlers, {
    get: (target, name: string) =>
      target[name] ??
      (async () => {
        throw new Error(`${name} is not part of this test`)
      })
  })
  return {
    request: (channel, input) => dispatch(full as never, channel, input) as never,
    subscribe
  }
}
