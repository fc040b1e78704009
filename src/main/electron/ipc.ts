import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import { EVENT_CHANNEL, requestChannels } from '../../shared/contract/channels'
import type { Core } from '../core/create-core'

/**
 * Binds every contract channel to the core. A message is answered only when it comes from one of
 * our own windows' main frame loaded from our own bundle; everything else is refused.
 */
export function bindIpc(core: Core, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): () => void {
  for (const channel of requestChannels) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'forbidden', message: 'Request from an untrusted frame.' } }
      }
      return core.handle(channel, payload)
    })
  }
  return () => {
    for (const channel of requestChannels) ipcMain.removeHandler(channel)
  }
}

/** Forwards core events to a window for as long as it lives. */
export function forwardEvents(core: Core, contents: WebContents): void {
  const unsubscribe = core.bus.subscribe((name, payload) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, { name, payload })
  })
  contents.once('destroyed', unsubscribe)
}
