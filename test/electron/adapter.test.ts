import { beforeEach, describe, expect, it, vi } from 'vitest'

// No Electron binary exists here: the adapter is checked against a recording stand-in of the
// electron module's API surface, so what it configures and registers is asserted directly.
const recorded = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, payload: unknown) => unknown>(),
  windows: [] as Array<{ options: any; contents: any }>,
  exposed: {} as Record<string, any>,
  sent: [] as unknown[]
}))

vi.mock('electron', () => {
  class FakeWebContents {
    listeners = new Map<string, (...args: any[]) => void>()
    windowOpenHandler: ((details: { url: string }) => unknown) | null = null
    mainFrame = { url: 'file:///opt/Modus/resources/app.asar/out/renderer/index.html' }
    on(name: string, listener: (...args: any[]) => void) {
      this.listeners.set(name, listener)
      return this
    }
    once(name: string, listener: (...args: any[]) => void) {
      return this.on(name, listener)
    }
    setWindowOpenHandler(handler: (details: { url: string }) => unknown) {
      this.windowOpenHandler = handler
    }
    isDestroyed() {
      return false
    }
    send(_channel: string, message: unknown) {
      recorded.sent.push(message)
    }
  }
  class BrowserWindow {
    webContents = new FakeWebContents()
    constructor(public options: any) {
      recorded.windows.push({ options, contents: this.webContents })
    }
    once() {}
    loadFile() {
      return Promise.resolve()
    }
    static fromWebContents(contents: unknown) {
      return recorded.windows.some((w) => w.contents === contents) ? {} : null
    }
  }
  return {
    BrowserWindow,
    shell: { openExternal: vi.fn() },
    ipcMain: {
      handle: (channel: string, handler: any) => recorded.handlers.set(channel, handler),
      removeHandler: (channel: string) => recorded.handlers.delete(channel)
    },
    contextBridge: { exposeInMainWorld: (key: string, api: any) => (recorded.exposed[key] = api) },
    ipcRenderer: { invoke: vi.fn(async () => ({ ok: true, value: 'from-main' })), on: vi.fn(), removeListener: vi.fn() }
  }
})

import { requests } from '../../src/shared/contract'
import { bindIpc, forwardEvents } from '../../src/main/electron/ipc'
import { createMainWindow, isTrustedSender } from '../../src/main/electron/window'
import { createEventBus } from '../../src/main/core/event-bus'

describe('Electron adapter', () => {
  beforeEach(() => {
    recorded.handlers.clear()
    recorded.windows.length = 0
    recorded.sent.length = 0
  })

  it('creates the window isolated, sandboxed and without Node', () => {
    createMainWindow()
    const prefs = recorded.windows[0].options.webPreferences
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true })
    expect(prefs.preload).toMatch(/preload[/\\]index\.js$/)
  })

  it('blocks navigation and window.open', () => {
    createMainWindow()
    const contents = recorded.windows[0].contents
    const event = { preventDefault: vi.fn() }
    contents.listeners.get('will-navigate')(event)
    expect(event.preventDefault).toHaveBeenCalled()
    expect(contents.windowOpenHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    expect(contents.windowOpenHandler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
  })

  it('binds exactly the contract channels and answers only trusted senders', async () => {
    const handle = vi.fn(async () => ({ ok: true, value: 1 }))
    bindIpc({ handle } as any, isTrustedSender)
    expect([...recorded.handlers.keys()].sort()).toEqual(Object.keys(requests).sort())

    createMainWindow()
    const contents = recorded.windows[0].contents
    const trusted = { sender: contents, senderFrame: contents.mainFrame }
    expect(await recorded.handlers.get('app:info')!(trusted, {})).toEqual({ ok: true, value: 1 })

    const subframe = { sender: contents, senderFrame: { url: contents.mainFrame.url } }
    expect(await recorded.handlers.get('app:info')!(subframe, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' }
    })
    const foreignPage = { sender: contents, senderFrame: contents.mainFrame }
    contents.mainFrame = { url: 'https://evil.example/index.html' }
    foreignPage.senderFrame = contents.mainFrame
    expect(await recorded.handlers.get('app:info')!(foreignPage, {})).toMatchObject({ ok: false })
    expect(handle).toHaveBeenCalledTimes(1)
  })

  it('forwards core events to the window', () => {
    createMainWindow()
    const bus = createEventBus()
    forwardEvents({ bus } as any, recorded.windows[0].contents)
    bus.emit('app:notice', { level: 'info', message: 'hello' })
    expect(recorded.sent).toEqual([{ name: 'app:notice', payload: { level: 'info', message: 'hello' } }])
  })

  it('the preload exposes only invoke/onEvent and refuses channels outside the contract', async () => {
    await import('../../src/preload/index')
    const bridge = recorded.exposed.modus
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'onEvent'])
    expect(await bridge.invoke('app:info', {})).toEqual({ ok: true, value: 'from-main' })
    expect(await bridge.invoke('fs:readFile', { path: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' }
    })
  })
})
