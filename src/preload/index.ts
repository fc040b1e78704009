import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { EVENT_CHANNEL, requestChannels } from '../shared/contract/channels'

/**
 * The renderer's only door to the core: `invoke` for the contract's request channels (anything
 * else is refused here, before IPC) and `onEvent` for contract events. No raw ipcRenderer, no env.
 */
const allowed = new Set<string>(requestChannels)

const bridge = {
  invoke(channel: string, payload: unknown): Promise<unknown> {
    if (!allowed.has(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: `Unknown channel: ${channel}` } })
    }
    return ipcRenderer.invoke(channel, payload)
  },
  onEvent(listener: (name: string, payload: unknown) => void): () => void {
    const handler = (_event: IpcRendererEvent, message: { name: string; payload: unknown }): void =>
      listener(message.name, message.payload)
    ipcRenderer.on(EVENT_CHANNEL, handler)
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler)
  }
}

export type ModusBridge = typeof bridge

contextBridge.exposeInMainWorld('modus', bridge)
