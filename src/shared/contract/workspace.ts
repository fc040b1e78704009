import { z } from 'zod'
import { request } from './define'

export const WorkspaceInfo = z.object({
  /** Absolute, real path of the opened folder. */
  root: z.string(),
  name: z.string(),
  /** Whether auto-approve and allow rules from the project's own files apply. */
  trusted: z.boolean(),
  /** True once the user answered the trust prompt for this folder (it is asked once). */
  trustAnswered: z.boolean(),
  /** What the project's files would grant if trusted, one line per mode. */
  projectGrants: z.array(z.string()),
  /** Grants made since the user trusted the folder, one item each: trust waits until they answer again. */
  newGrants: z.array(z.string()),
  /** Identity of the grants shown; the answer names it so a change in between is not trusted unseen. */
  grantsHash: z.string(),
  /** Why the trust file cannot be used (it is kept as it is until fixed); empty when fine. */
  trustProblems: z.array(z.string())
})
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>

export const workspaceRequests = {
  /** Opens a folder by path (the browser surface types it; Electron gets it from `workspace:pick`). */
  'workspace:open': request(z.object({ path: z.string().min(1).max(4096) }).strict(), WorkspaceInfo),
  /** Native folder dialog; the web host answers `unsupported` and the UI shows a path field. */
  'workspace:pick': request(z.object({}).strict(), WorkspaceInfo.nullable()),
  'workspace:current': request(z.object({}).strict(), WorkspaceInfo.nullable()),
  'workspace:recent': request(z.object({}).strict(), z.array(z.string())),
  /** Folders whose path continues what the user typed (`/home/me/pro` → `/home/me/projects`…). */
  'workspace:complete': request(z.object({ path: z.string().max(4096) }).strict(), z.object({ folders: z.array(z.string()) })),
  /** The user's answer to the trust prompt for the open workspace. */
  'workspace:trust': request(
    z.object({ trusted: z.boolean(), grantsHash: z.string().max(128).optional() }).strict(),
    WorkspaceInfo
  )
}

export const workspaceEvents = {
  'workspace:opened': WorkspaceInfo
}
