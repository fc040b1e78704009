import { z } from 'zod'
import { request } from './define'

export const WorkspaceInfo = z.object({
  /** Absolute, real path of the opened folder. */
  root: z.string(),
  name: z.string()
})
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>

export const workspaceRequests = {
  /** Opens a folder by path (the browser surface types it; Electron gets it from `workspace:pick`). */
  'workspace:open': request(z.object({ path: z.string().min(1) }).strict(), WorkspaceInfo),
  /** Native folder dialog; the web host answers `unsupported` and the UI shows a path field. */
  'workspace:pick': request(z.object({}).strict(), WorkspaceInfo.nullable()),
  'workspace:current': request(z.object({}).strict(), WorkspaceInfo.nullable()),
  'workspace:recent': request(z.object({}).strict(), z.array(z.string()))
}

export const workspaceEvents = {
  'workspace:opened': WorkspaceInfo
}
