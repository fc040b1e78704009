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

/** One folder the user answered the trust prompt for (Settings → Trust). */
export const TrustedFolder = z.object({
  root: z.string(),
  trusted: z.boolean(),
  /** When the user answered (ms since the epoch). */
  at: z.number(),
  /** The grants the user saw (and made themselves) when trusting, one item each. */
  grants: z.array(z.string())
})
export type TrustedFolder = z.infer<typeof TrustedFolder>

export const TrustedFolders = z.object({ folders: z.array(TrustedFolder), problems: z.array(z.string()) })
export type TrustedFolders = z.infer<typeof TrustedFolders>

export const workspaceRequests = {
  /** Opens a folder by path (the browser surface types it; Electron gets it from `workspace:pick`). */
  'workspace:open': request(z.object({ path: z.string().min(1).max(4096) }).strict(), WorkspaceInfo),
  /** Native folder dialog; the web host answers `unsupported` and the UI shows a path field. */
  'workspace:pick': request(z.object({}).strict(), WorkspaceInfo.nullable()),
  'workspace:current': request(z.object({}).strict(), WorkspaceInfo.nullable()),
  'workspace:recent': request(z.object({}).strict(), z.array(z.string())),
  /** Folders whose path continues what the user typed (`/home/me/pro` → `/home/me/projects`…). */
  'workspace:complete': request(
    z.object({ path: z.string().max(4096) }).strict(),
    z.object({ folders: z.array(z.string()) })
  ),
  /** The user's answer to the trust prompt for the open workspace. */
  'workspace:trust': request(
    z.object({ trusted: z.boolean(), grantsHash: z.string().max(128).optional() }).strict(),
    WorkspaceInfo
  ),
  /** Every folder the user answered for, trusted or not, newest answer first. */
  'workspace:trustedFolders': request(z.object({}).strict(), TrustedFolders),
  /**
   * Forgets the answer for a folder and the modes the user saved there: its project grants are off
   * again and the prompt asks on the next open (at once, for the open folder).
   */
  'workspace:revokeTrust': request(z.object({ root: z.string().min(1).max(4096) }).strict(), TrustedFolders)
}

export const workspaceEvents = {
  'workspace:opened': WorkspaceInfo
}
