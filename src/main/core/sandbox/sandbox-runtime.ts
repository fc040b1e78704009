import type { SandboxAskCallback, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'

/** The part of Anthropic's sandbox runtime Modus uses (one per process: it owns the network proxy). */
export interface SandboxRuntime {
  initialize(config: SandboxRuntimeConfig, ask: SandboxAskCallback): Promise<void>
  checkDependencies(ripgrep?: { command: string }): { errors: string[]; warnings: string[] }
  wrapWithSandbox(
    command: string,
    binShell: string | undefined,
    customConfig: Partial<SandboxRuntimeConfig>,
    abortSignal: AbortSignal | undefined,
    options: { commandId: string; commandText: string }
  ): Promise<string>
  registerCommandNetworkLists(commandId: string, lists: { allowedDomains: string[] }): void
  unregisterCommandNetworkLists(commandId: string): void
  /** After each wrapped command has ended: removes the mount points bwrap left in the workspace once none runs. */
  cleanupAfterCommand(): void
  reset(): Promise<void>
}

export type { SandboxAskCallback, SandboxRuntimeConfig }

/** The runtime is an ES module; the core is bundled as CommonJS, so it is loaded on first use. */
export async function loadSandboxRuntime(): Promise<SandboxRuntime> {
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime')
  return SandboxManager
}
