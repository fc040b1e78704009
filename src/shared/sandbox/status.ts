import { z } from 'zod'

/**
 * Whether commands can run in the OS sandbox on this machine. When they cannot, `reason` says what
 * is missing or refused and `fix` what the user can do; modes with a sandbox then ask for every
 * command instead of running one unsandboxed without asking.
 */
export const SandboxStatus = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), platform: z.string() }),
  z.object({ available: z.literal(false), platform: z.string(), reason: z.string(), fix: z.string() })
])
export type SandboxStatus = z.infer<typeof SandboxStatus>

/** One line for a tool result or a banner: what is wrong and how to fix it. */
export const sandboxUnavailableLine = (status: Extract<SandboxStatus, { available: false }>): string =>
  `The sandbox cannot start here: ${status.reason}. Fix: ${status.fix}`
