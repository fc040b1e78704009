import { app, BrowserWindow } from 'electron'
import { createCore, type Core } from './core/create-core'
import { hardenApp } from './electron/app-security'
import { pickFolder } from './electron/dialogs'
import { bindIpc, forwardEvents } from './electron/ipc'
import { notifyTasks } from './electron/notifications'
import { createSafeStorageSecretStore } from './electron/secrets'
import { createMainWindow, isTrustedSender } from './electron/window'

/** Electron composition root: builds the core from factories and binds it to windows over IPC. */
app.setName('Modus')
hardenApp()

let core: Core | null = null

function openWindow(activeCore: Core): void {
  const window = createMainWindow()
  forwardEvents(activeCore, window.webContents)
}

app
  .whenReady()
  .then(async () => {
    const dataDir = app.getPath('userData')
    core = await createCore({
      dataDir,
      transport: 'electron',
      version: app.getVersion(),
      pickFolder,
      secrets: createSafeStorageSecretStore(dataDir)
    })
    bindIpc(core, isTrustedSender)
    notifyTasks(core)
    openWindow(core)
    app.on('activate', () => {
      if (core && BrowserWindow.getAllWindows().length === 0) openWindow(core)
    })
  })
  .catch((error: unknown) => {
    // Without a core there is nothing to show: say why on stderr and leave rather than hang without a window.
    console.error('Modus could not start:', error)
    app.exit(1)
  })

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('will-quit', () => {
  void core?.dispose()
})
