import { BrowserWindow, dialog } from 'electron'

/** Native folder picker for "Open folder". */
export async function pickFolder(): Promise<string | null> {
  const parent = BrowserWindow.getFocusedWindow()
  const options: Electron.OpenDialogOptions = {
    title: 'Open a project folder',
    properties: ['openDirectory', 'createDirectory']
  }
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
  return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0]
}
