import { join } from 'node:path'
import { BrowserWindow, shell, type IpcMainInvokeEvent } from 'electron'

const RENDERER_ENTRY = join(__dirname, '../renderer/index.html')

/** The hardened main window: isolated, sandboxed, no Node, no navigation, no popups. */
export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Modus',
    icon: join(__dirname, '../../resources/icon.png'),
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      // Middle-click would otherwise open links in a new window, bypassing the window-open handler.
      disableBlinkFeatures: 'Auxclick'
    }
  })
  window.once('ready-to-show', () => window.show())
  const contents = window.webContents
  // Links the model writes open in the user's browser, never inside the app.
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => event.preventDefault())
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  void window.loadFile(RENDERER_ENTRY)
  return window
}

/** True only for the main frame of one of our windows showing our bundled renderer. */
export function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame
  if (!frame || frame !== event.sender.mainFrame) return false
  if (!BrowserWindow.fromWebContents(event.sender)) return false
  try {
    const url = new URL(frame.url)
    return url.protocol === 'file:' && decodeURIComponent(url.pathname).endsWith('/renderer/index.html')
  } catch {
    return false
  }
}

function isWebLink(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:'
  } catch {
    return false
  }
}
