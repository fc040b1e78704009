import { app, session } from 'electron'
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy'

/** Process-wide hardening applied before any window opens. */
export function hardenApp(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (navigation) => navigation.preventDefault())
    contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  })
  void app.whenReady().then(() => {
    const defaultSession = session.defaultSession
    // Modus needs no camera, microphone, geolocation, notifications-by-web-API, etc.
    defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
    defaultSession.setPermissionCheckHandler(() => false)
    defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }
      })
    })
  })
}
