import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { basename, isAbsolute, join, resolve } from 'node:path'
import { SANDBOX_PROTECTED } from '../../../shared/policy/paths'
import type { EffectiveSandbox } from '../../../shared/policy/sandbox'
import { hiddenCredentialPaths } from '../../../shared/sandbox/credentials'
import { sandboxUnavailableLine, type SandboxStatus } from '../../../shared/sandbox/status'
import { findOnPath } from '../terminal/shell-integration'
import { blockedReport, createBlockedWriteScanner } from './blocked-report'
import { bwrapArgs, SECCOMP_FD, shellWord } from './bwrap-args'
import { createMountPointJanitor } from './mount-points'
import { createNetworkGate, type NetworkAnswer, type NetworkAsk, type SandboxedCommand } from './network-gate'
import { NETWORK_FAILURE_WORDS, offlineRefusals } from './offline-refusals'
import { createOfflineSandbox, layoutOnDisk, ownBinds, POSIX_SHELLS, type OfflineSandbox } from './offline-sandbox'
import type { BwrapLayout } from './bwrap-args'
import {
  fromKeptWrap,
  identityOf,
  keepable,
  TEMPLATE_INNER,
  templateCommandId,
  type KeptWrap
} from './runtime-template'
import { loadSandboxRuntime, type SandboxRuntime, type SandboxRuntimeConfig } from './sandbox-runtime'
import { unixSocketFilter } from './seccomp-filter'
import { carryShellDefinitions, shellStateNote, type ShellDefinitions } from './shell-definitions'
import { missingTools, refusedByKernel, unsupportedPlatform, type Unavailable } from './unavailable'
import { createWarmPool, type WarmBuild } from './warm-pool'
import { closingInherited, WARM_SERVER, WARM_TTY } from './warm-scripts'

export type { NetworkAnswer, NetworkAsk, SandboxedCommand }

/** Paths in the workspace that stay read-only inside the sandbox, even where absent (the policy's one table). */
export const PROTECTED_IN_SANDBOX: readonly string[] = SANDBOX_PROTECTED.always
/** The table's other protected names, read-only too where they exist. */
export const PROTECTED_WHERE_PRESENT: readonly string[] = SANDBOX_PROTECTED.wherePresent
const ALL_PROTECTED: readonly string[] = [...PROTECTED_IN_SANDBOX, ...PROTECTED_WHERE_PRESENT]
/** Where in the runtime's bwrap line the mounts are done: binds after it go over them. */
const DEV_MARKER = ' --dev /dev '

/** The protected paths of a workspace to mount read-only, absolute. */
export function protectedInSandbox(workspaceRoot: string): string[] {
  const present = PROTECTED_WHERE_PRESENT.filter((name) => existsSync(join(workspaceRoot, name)))
  return [...PROTECTED_IN_SANDBOX, ...present].map((name) => join(workspaceRoot, name))
}

export interface SandboxServiceDeps {
  /** Asks the user about a connection to a domain no list allows (the approval queue). */
  askNetwork: (ask: NetworkAsk, signal: AbortSignal) => Promise<NetworkAnswer>
  platform?: NodeJS.Platform
  /** Where bubblewrap, socat and ripgrep are looked up (default: this process's PATH). */
  path?: () => string | undefined
  /** The system temp dir, writable by default (default: os.tmpdir()). */
  tempDir?: string
  runtime?: () => Promise<SandboxRuntime>
  /** The user's home, where credential stores are looked for (default: os.homedir(), read per command). */
  home?: () => string
  /** How long a warm sandbox waits for its next command before it ends (default WARM_IDLE_MS). */
  warmIdleMs?: number
}

/**
 * A warm sandbox ends after this long without a command. An agent's commands come a model turn
 * apart (seconds to tens of seconds): 30 s keeps them warm through a run of work, while the empty
 * placeholders over absent protected paths (`.modus`, `.roomodes`, a fresh folder's `.git`) stay
 * only a little longer than a per-command sandbox's would.
 */
export const WARM_IDLE_MS = 30_000

export interface SandboxCommandRequest {
  taskId: string
  /** The tool call that runs it, if any (its card shows the command's network asks). */
  callId?: string
  modeSlug: string
  modeName: string
  command: string
  /** The workspace root, realpath-resolved. */
  workspaceRoot: string
  sandbox: EffectiveSandbox
  /** The shell the command text is written for (default: bash). */
  shell?: string
  /** Folders no sandboxed command may read whatever its mode says (Modus's data dir: its secrets). */
  privateDirs?: readonly string[]
  /** The task shell's terminal device: with it (Linux, bash) the command runs in a warm sandbox. */
  tty?: string
  /**
   * Folders read-only inside whatever the writable roots say: an isolated task's repository (its
   * working tree and git data: history, refs, config, hooks), which its worktree's git reads.
   */
  readOnly?: readonly string[]
}

export interface SandboxedRun {
  /** What the task shell runs instead of the command: the command inside the sandbox. */
  text: string
  note?: string
  /** The command's output as it streams, watched for refused writes. */
  scan(text: string): void
  /** Once, when the command has ended: releases its network list; returns the blocked line or null. */
  finish(output: string): string | null
}

export interface SandboxService {
  /** Whether commands can be sandboxed here; an unavailable result is checked again on the next call. */
  status(): Promise<SandboxStatus>
  /** Wraps one command; throws (nothing runs) when the sandbox cannot start. */
  prepare(request: SandboxCommandRequest): Promise<SandboxedRun>
  /** The task's run or the task has ended: its warm sandboxes end (and their placeholders go). */
  endTask(taskId: string): Promise<void>
  /**
   * The empty files running sandboxes placed over absent protected paths (a warm sandbox keeps
   * them between commands): not the user's files, so checkpoints leave them out.
   */
  placeholders(): string[]
  dispose(): Promise<void>
}

/**
 * Commands in Anthropic's sandbox runtime (bubblewrap + socat on Linux, Seatbelt on macOS): writes
 * confined to the mode's writable roots, network only through the runtime's proxy, whose
 * unlisted domains the network gate refuses or puts to the user. On Linux a command without
 * network skips the runtime: Modus's own bubblewrap line (offline-sandbox.ts), kept between commands.
 */
export function createSandboxService(deps: SandboxServiceDeps): SandboxService {
  const platform = deps.platform ?? process.platform
  const tempDir = realOrSelf(deps.tempDir ?? tmpdir())
  const gate = createNetworkGate({ askNetwork: deps.askNetwork })
  // Files every sandbox reads (the seccomp filter, the warm server script); read-only inside.
  let definitionsDir: string | null = null
  // The task shells' functions and aliases, one file per command (see shell-definitions.ts): the
  // folder is hidden in every sandbox, each file bound back into its own command's sandbox only.
  let commandDefsDir: string | null = null
  const hiddenDefsDir = (): string => (commandDefsDir ??= mkdtempSync(join(tempDir, 'modus-command-defs-')))
  const definitionsFile = (commandId: string): string => join(hiddenDefsDir(), `${commandId}.sh`)
  // Where the runtime builds the wrap itself (not Linux) it cannot bind one file back: the shared folder.
  const sharedDefinitionsFile = (commandId: string): string =>
    join((definitionsDir ??= mkdtempSync(join(tempDir, 'modus-shell-defs-'))), `${commandId}.sh`)
  let runtime: SandboxRuntime | null = null
  let offline: OfflineSandbox | null = null
  let bwrapPath: string | null = null
  const keptWraps = new Map<string, { layout: string; wrap: KeptWrap }>()
  const janitor = createMountPointJanitor()
  const baseDir = (): string => (definitionsDir ??= mkdtempSync(join(tempDir, 'modus-shell-defs-')))
  // The warm sandboxes' request dirs (their task shell's exports dump, the FIFOs of their answers):
  // hidden in every sandbox, each bound back into its own one only.
  let requestsDir: string | null = null
  const warmRequestsDir = (): string => (requestsDir ??= mkdtempSync(join(tempDir, 'modus-warm-requests-')))
  const warmPool = createWarmPool({
    janitor,
    baseDir: warmRequestsDir,
    idleMs: deps.warmIdleMs ?? WARM_IDLE_MS,
    readyTimeoutMs: 10_000
  })
  let warmServer: string | null = null
  let checking: Promise<SandboxStatus> | null = null
  let known: SandboxStatus | null = null

  async function probe(): Promise<SandboxStatus> {
    const refused = (why: Unavailable): SandboxStatus => ({ available: false, platform, ...why })
    const unsupported = unsupportedPlatform(platform)
    if (unsupported) return refused(unsupported)
    const tools = platform === 'linux' ? linuxTools(deps.path?.() ?? process.env.PATH) : null
    if (tools && 'missing' in tools) return refused(missingTools(tools.missing))
    const loaded = await (deps.runtime ?? loadSandboxRuntime)()
    const config: SandboxRuntimeConfig = {
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      // Names like .bashrc are looked for below the app's own cwd: one level is enough there,
      // since the workspace's protected paths are named per command.
      mandatoryDenySearchDepth: 1,
      ...(tools && 'bwrap' in tools
        ? { bwrapPath: tools.bwrap, socatPath: tools.socat, ripgrep: { command: tools.rg } }
        : {})
    }
    try {
      await loaded.initialize(config, (host) => gate.decide(host))
    } catch (error) {
      return refused({
        reason: `the sandbox runtime did not start (${error instanceof Error ? error.message : String(error)})`,
        fix: 'see the log; commands of sandboxed modes ask meanwhile'
      })
    }
    if (platform === 'linux') mkdirSync('/tmp/claude', { recursive: true })
    const trial = await loaded
      .wrapWithSandbox(
        'true',
        undefined,
        { filesystem: { denyRead: [], allowWrite: [tempDir], denyWrite: [] } },
        undefined,
        { commandId: newCommandId(), commandText: 'true' }
      )
      .then(run)
      .catch((error: unknown) => ({ code: 1, stderr: error instanceof Error ? error.message : String(error) }))
    // Every wrap counts as running until this: mount points are only removed when none is.
    loaded.cleanupAfterCommand()
    if (trial.code !== 0) {
      await loaded.reset().catch(() => undefined)
      return refused(refusedByKernel(trial.stderr))
    }
    runtime = loaded
    if (tools && 'bwrap' in tools) {
      bwrapPath = tools.bwrap
      offline = await startOffline(tools.bwrap)
    }
    return { available: true, platform }
  }

  /** Modus's own wrap for commands without network, once it has started a sandbox here; else null (the runtime wraps them). */
  async function startOffline(bwrap: string): Promise<OfflineSandbox | null> {
    const filter = unixSocketFilter()
    if (!filter) return null
    const dir = (definitionsDir ??= mkdtempSync(join(tempDir, 'modus-shell-defs-')))
    const filterFile = join(dir, 'seccomp.bpf')
    writeFileSync(filterFile, filter)
    const layout = { writable: [tempDir], hidden: [], readOnly: [dir], absent: [] }
    const trial = await run(
      `${[bwrap, ...bwrapArgs(layout)].map(shellWord).join(' ')} -- /bin/sh -c true ${SECCOMP_FD}< ${shellWord(filterFile)}`
    )
    if (trial.code !== 0) return null
    return createOfflineSandbox({
      bwrap,
      filterFile,
      readOnly: [dir],
      protectedAlways: PROTECTED_IN_SANDBOX,
      protectedWherePresent: PROTECTED_WHERE_PRESENT,
      path: () => deps.path?.() ?? process.env.PATH,
      placeholder: (path) => janitor.created(path)
    })
  }

  /**
   * The runtime's wrap of TEMPLATE_INNER kept per workspace, shell and settings while the protected
   * and hidden paths on disk stay as they were (runtime-template.ts), with the layout it covers;
   * null where no wrap can be kept (not Linux, not a POSIX shell, a protected symlink).
   */
  async function keptTemplate(
    live: SandboxRuntime,
    request: SandboxCommandRequest,
    config: () => Partial<SandboxRuntimeConfig>,
    roots: string[],
    hidden: string[]
  ): Promise<{ wrap: KeptWrap; layout: BwrapLayout } | null> {
    const shell = request.shell ?? 'bash'
    const readOnly = definitionsDir ? [definitionsDir] : []
    const layout =
      bwrapPath && POSIX_SHELLS.has(basename(shell))
        ? layoutOnDisk(
            { workspaceRoot: request.workspaceRoot, writable: roots, hidden, readOnly: request.readOnly },
            {
              protectedAlways: PROTECTED_IN_SANDBOX,
              protectedWherePresent: PROTECTED_WHERE_PRESENT,
              readOnly,
              placeholder: (path) => janitor.created(path)
            }
          )
        : null
    if (!bwrapPath || !layout) return null
    const key = JSON.stringify([request.workspaceRoot, roots, hidden, request.readOnly, shell])
    const signature = JSON.stringify(layout)
    let kept = keptWraps.get(key)
    if (kept?.layout !== signature) {
      const id = templateCommandId()
      const text = await live.wrapWithSandbox(TEMPLATE_INNER, request.shell, config(), undefined, {
        commandId: id,
        commandText: request.command
      })
      // The runtime counts every wrap as running until its cleanup: this one never runs by itself.
      janitor.begin()
      janitor.end(() => live.cleanupAfterCommand())
      if (!keepable(text, bwrapPath)) return null
      kept = { layout: signature, wrap: { text, id } }
      if (keptWraps.size >= 32) keptWraps.delete(keptWraps.keys().next().value!)
      keptWraps.set(key, kept)
    }
    return { wrap: kept.wrap, layout }
  }

  /**
   * The runtime's wrap of a command with network: on Linux from the kept wrap; else made for the
   * command. `end` runs once the command has ended.
   */
  async function runtimeWrap(
    live: SandboxRuntime,
    request: SandboxCommandRequest,
    commandId: string,
    config: () => Partial<SandboxRuntimeConfig>,
    roots: string[],
    hidden: string[]
  ): Promise<{ text: string; end: () => void; definitions: ShellDefinitions | null; file: string }> {
    const kept = await keptTemplate(live, request, config, roots, hidden)
    if (!kept || !kept.wrap.text.includes(DEV_MARKER)) {
      const file = sharedDefinitionsFile(commandId)
      const definitions = carryShellDefinitions(request.shell, file, request.command)
      const inner = withLoopbackThroughProxy(definitions?.command ?? request.command, request.shell)
      const text = await live.wrapWithSandbox(inner, request.shell, config(), undefined, {
        commandId,
        commandText: request.command
      })
      janitor.begin()
      return { text, end: () => janitor.end(() => live.cleanupAfterCommand()), definitions, file }
    }
    const file = definitionsFile(commandId)
    const definitions = carryShellDefinitions(request.shell, file, request.command)
    const shell = request.shell ?? 'bash'
    const prelude = [withLoopbackThroughProxy('', shell).trim(), definitions?.load ?? ''].filter(Boolean).join('\n')
    // Bound in the wrap itself, before the command text goes in front of it.
    const binds = definitions ? ownBinds([file]) : ''
    const bound = { ...kept.wrap, text: kept.wrap.text.replace(DEV_MARKER, `${DEV_MARKER.trimEnd()}${binds} `) }
    janitor.begin(kept.layout.absent)
    return {
      text: fromKeptWrap(bound, commandId, prelude, request.command),
      end: () => janitor.end(),
      definitions,
      file
    }
  }

  /**
   * The command in the warm sandbox of its task, mode and terminal (warm-sandbox.ts), started for
   * it if need be: Modus's own line without network, the runtime's kept wrap with it. Null where
   * that does not apply or the warm sandbox is busy or did not start: the per-command path runs it.
   */
  async function warmWrap(
    request: SandboxCommandRequest,
    commandId: string,
    roots: string[],
    hidden: string[],
    network: { live: SandboxRuntime; config: () => Partial<SandboxRuntimeConfig> } | null
  ): Promise<{ text: string; end: () => void } | null> {
    const tty = request.tty
    const shell = request.shell ?? 'bash'
    if (platform !== 'linux' || !tty || !bwrapPath || basename(shell) !== 'bash') return null
    const made = network
      ? await warmNetworkBuild(request, roots, hidden, network, tty)
      : warmOfflineBuild(request, roots, hidden, tty)
    if (!made) return null
    const slot = JSON.stringify([request.taskId, request.modeSlug, tty])
    const warm = await warmPool.acquire(slot, request.taskId, made.config, made.build)
    if (!warm) return null
    const text = warm.request({
      id: commandId,
      identity: network ? identityOf(commandId) : '',
      script: network ? withLoopbackThroughProxy(request.command, shell) : request.command
    })
    return { text, end: () => warm.ended(commandId) }
  }

  /** The server script, written once where every sandbox can read it and none can write. */
  function serverFile(): string {
    if (!warmServer || !existsSync(warmServer)) {
      warmServer = join(baseDir(), 'warm-server.sh')
      writeFileSync(warmServer, WARM_SERVER, { mode: 0o600 })
    }
    return warmServer
  }

  /** What a warm sandbox laid out over `layout` must find unchanged on disk to be used again. */
  const watchedPaths = (layout: BwrapLayout, roots: string[], tty: string): string[] => [
    ...layout.readOnly,
    ...layout.hidden.map((entry) => entry.path),
    ...roots,
    tty
  ]

  const hostBash = (shell: string): string | null =>
    isAbsolute(shell) ? shell : findOnPath(shell, { PATH: deps.path?.() ?? process.env.PATH ?? '' }, 'linux')

  const hostEnv = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: deps.path?.() ?? process.env.PATH })

  function warmOfflineBuild(
    request: SandboxCommandRequest,
    roots: string[],
    hidden: string[],
    tty: string
  ): { config: string; build: (dir: string) => WarmBuild } | null {
    const launch = offline?.launch({
      workspaceRoot: request.workspaceRoot,
      writable: roots,
      hidden,
      readOnly: request.readOnly,
      shell: request.shell
    })
    const args = launch ? withTty(launch.args, tty) : null
    const devAt = args?.indexOf(WARM_TTY) ?? -1
    if (!launch || !args || devAt < 0) return null
    const server = serverFile()
    return {
      config: JSON.stringify(['none', launch.args, launch.shell]),
      build: (dir) => ({
        launch: {
          file: launch.shell,
          args: [
            '-c',
            closingInherited(SECCOMP_FD, 'exec "$@"'),
            'modus-warm',
            launch.bwrap,
            ...args.slice(0, devAt + 1),
            '--ro-bind',
            dir,
            dir,
            ...args.slice(devAt + 1),
            '--',
            launch.shell,
            server,
            dir,
            '-',
            ''
          ],
          env: hostEnv(),
          fd3: launch.filterFile
        },
        watched: watchedPaths(launch.layout, roots, tty),
        placeholders: launch.layout.absent
      })
    }
  }

  async function warmNetworkBuild(
    request: SandboxCommandRequest,
    roots: string[],
    hidden: string[],
    network: { live: SandboxRuntime; config: () => Partial<SandboxRuntimeConfig> },
    tty: string
  ): Promise<{ config: string; build: (dir: string) => WarmBuild } | null> {
    const kept = await keptTemplate(network.live, request, network.config, roots, hidden)
    const marker = DEV_MARKER
    const text = kept?.wrap.text
    const bash = hostBash(request.shell ?? 'bash')
    if (!kept || !text || !bash || text.indexOf(marker) < 0 || text.indexOf(marker) !== text.lastIndexOf(marker))
      return null
    const server = serverFile()
    const names = [...text.matchAll(/ --setenv (\w+) /g)].map((match) => match[1]).join(' ')
    const withDevice = (dir: string): string =>
      text.replace(
        marker,
        `${marker}--dev-bind ${shellWord(tty)} ${WARM_TTY} --ro-bind ${shellWord(dir)} ${shellWord(dir)} `
      )
    return {
      config: JSON.stringify(['network', text]),
      build: (dir) => ({
        launch: {
          file: bash,
          args: ['-c', closingInherited(2, `exec ${withDevice(dir)}`)],
          env: {
            ...hostEnv(),
            MODUS_SANDBOX_PRELUDE: '',
            MODUS_SANDBOX_COMMAND: `exec "$BASH" ${[server, dir, identityOf(kept.wrap.id), names].map(shellWord).join(' ')}`
          }
        },
        watched: watchedPaths(kept.layout, roots, tty),
        placeholders: kept.layout.absent
      })
    }
  }

  /** A command without network in Modus's own wrap, or null where that does not apply. */
  function prepareOffline(
    request: SandboxCommandRequest,
    commandId: string,
    roots: string[],
    hidden: string[]
  ): SandboxedRun | null {
    if (!offline || request.sandbox.network !== 'none') return null
    const definitions = carryShellDefinitions(request.shell, definitionsFile(commandId), request.command)
    const wrap = offline.wrap({
      workspaceRoot: request.workspaceRoot,
      writable: roots,
      hidden,
      readOnly: request.readOnly,
      shell: request.shell,
      command: definitions?.command ?? request.command,
      ownFiles: definitions ? [definitionsFile(commandId)] : []
    })
    if (!wrap) {
      if (definitions) rmSync(definitionsFile(commandId), { force: true })
      return null
    }
    janitor.begin(wrap.mountPoints)
    return offlineRun(request, definitions ? `${definitions.dump}; ${wrap.text}` : wrap.text, hidden, () => {
      if (definitions) rmSync(definitionsFile(commandId), { force: true })
      janitor.end()
    })
  }

  /** A command without network, run by `text`; `end` once it has ended. */
  function offlineRun(request: SandboxCommandRequest, text: string, hidden: string[], end: () => void): SandboxedRun {
    let finished = false
    const note = shellStateNote(request.command)
    const scanner = createBlockedWriteScanner(NETWORK_FAILURE_WORDS)
    return {
      text,
      ...(note ? { note } : {}),
      scan: (chunk) => scanner.push(chunk),
      finish(output) {
        if (finished) return null
        finished = true
        end()
        const seen = `${scanner.text()}\n${output}`
        return blockedReport(seen, offlineRefusals(seen), ALL_PROTECTED, hidden)
      }
    }
  }

  async function status(): Promise<SandboxStatus> {
    if (known?.available) return known
    checking ??= probe().then((result) => {
      known = result
      checking = null
      return result
    })
    return checking
  }

  return {
    status,
    async prepare(request) {
      const current = await status()
      if (!current.available || !runtime) {
        throw new Error(
          `${current.available ? 'The sandbox is not ready.' : sandboxUnavailableLine(current)} Nothing was run.`
        )
      }
      const commandId = templateCommandId()
      const roots = writableRoots(request.sandbox, request.workspaceRoot, tempDir)
      const hidden = [...hiddenPaths(request, deps.home?.() ?? homedir()), warmRequestsDir(), hiddenDefsDir()]
      if (offline && request.sandbox.network === 'none') {
        const warm = await warmWrap(request, commandId, roots, hidden, null)
        if (warm) return offlineRun(request, warm.text, hidden, warm.end)
      }
      const fast = prepareOffline(request, commandId, roots, hidden)
      if (fast) return fast
      // Only a wrap the runtime builds needs it (a kept one is reused while the layout on disk holds).
      let built: Partial<SandboxRuntimeConfig> | null = null
      const customConfig = (): Partial<SandboxRuntimeConfig> =>
        (built ??= {
          filesystem: {
            denyRead: hidden,
            allowWrite: roots,
            denyWrite: [
              ...protectedInSandbox(request.workspaceRoot).map((path) => ({ path, literal: true as const })),
              ...(request.readOnly ?? []).map((path) => ({ path: realOrSelf(path), literal: true as const })),
              ...(definitionsDir ? [{ path: definitionsDir, literal: true as const }] : [])
            ]
          }
        })
      const command: SandboxedCommand = {
        id: commandId,
        taskId: request.taskId,
        ...(request.callId ? { callId: request.callId } : {}),
        modeSlug: request.modeSlug,
        modeName: request.modeName,
        command: request.command,
        network: request.sandbox.network,
        allowed: request.sandbox.network === 'none' ? [] : request.sandbox.allowedDomains,
        refused: [],
        unanswered: []
      }
      const live = runtime
      gate.add(command, (allowed) => live.registerCommandNetworkLists(commandId, { allowedDomains: allowed }))
      let definitions: ShellDefinitions | null = null
      let definitionsAt = ''
      try {
        const warm = await warmWrap(request, commandId, roots, hidden, { live, config: customConfig })
        const wrap: { text: string; end: () => void; definitions?: ShellDefinitions | null; file?: string } =
          warm ?? (await runtimeWrap(live, request, commandId, customConfig, roots, hidden))
        definitions = wrap.definitions ?? null
        definitionsAt = wrap.file ?? ''
        let finished = false
        const note = shellStateNote(request.command)
        const scanner = createBlockedWriteScanner()
        return {
          text: definitions ? `${definitions.dump}; ${wrap.text}` : wrap.text,
          ...(note ? { note } : {}),
          scan: (text) => scanner.push(text),
          finish(output) {
            if (finished) return null
            finished = true
            if (definitions) rmSync(definitionsAt, { force: true })
            // bwrap leaves empty files where a protected path did not exist (.modus, .roomodes, even
            // .git): an empty .git breaks git, so they go as soon as no sandboxed command runs.
            wrap.end()
            live.unregisterCommandNetworkLists(commandId)
            gate.remove(commandId)
            // The refusals seen anywhere in the output, then the preview (a caller that fed nothing);
            // asks withdrawn by gate.remove above have already said why in `unanswered`.
            const blocked = blockedReport(`${scanner.text()}\n${output}`, command.refused, ALL_PROTECTED, hidden)
            return [blocked, ...command.unanswered].filter(Boolean).join('\n') || null
          }
        }
      } catch (error) {
        if (definitions) rmSync(definitionsAt, { force: true })
        live.unregisterCommandNetworkLists(commandId)
        gate.remove(commandId)
        throw error
      }
    },
    endTask: (taskId) => warmPool.endTask(taskId),
    placeholders: () => janitor.held(),
    async dispose() {
      await warmPool.dispose()
      gate.dispose()
      if (runtime) await runtime.reset().catch(() => undefined)
      runtime = null
      offline = null
      bwrapPath = null
      keptWraps.clear()
      known = null
      if (definitionsDir) rmSync(definitionsDir, { recursive: true, force: true })
      definitionsDir = null
      if (requestsDir) rmSync(requestsDir, { recursive: true, force: true })
      requestsDir = null
      if (commandDefsDir) rmSync(commandDefsDir, { recursive: true, force: true })
      commandDefsDir = null
    }
  }
}

/**
 * What a sandboxed command cannot read: the credential stores its mode did not give back (in the
 * user's home) and Modus's private folders. Paths that do not exist are skipped by the runtime.
 */
export function hiddenPaths(request: Pick<SandboxCommandRequest, 'sandbox' | 'privateDirs'>, home: string): string[] {
  const stores = hiddenCredentialPaths(request.sandbox.readableCredentials).map((path) => join(home, path.slice(2)))
  return [...stores, ...(request.privateDirs ?? []).map(realOrSelf)]
}

/**
 * The runtime exempts loopback and private networks from the proxy (NO_PROXY), so inside the
 * sandbox's own network a connection to `localhost:3000` was refused without a word. Loopback is
 * network like any other host: with NO_PROXY cleared, proxy-aware clients (curl, npm, pip, git)
 * send it through the proxy, where the gate asks (or refuses it with a `Sandbox:` line).
 */
function withLoopbackThroughProxy(command: string, shell: string | undefined): string {
  const name = basename(shell ?? 'bash')
  if (name !== 'bash' && name !== 'zsh' && name !== 'sh' && name !== 'dash') return command
  return `export NO_PROXY= no_proxy=\n${command}`
}

/** At least 128 random bits: the id is all that binds a proxy connection to a command's list. */
const newCommandId = (): string => randomBytes(16).toString('base64url')

function realOrSelf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** The mode's roots (`~` and workspace-relative ones resolved), or the workspace and the temp dir. */
export function writableRoots(sandbox: EffectiveSandbox, workspaceRoot: string, tempDir: string): string[] {
  if (!sandbox.writableRoots) return [workspaceRoot, tempDir]
  return sandbox.writableRoots.map((root) => {
    const expanded = root === '~' ? homedir() : root.startsWith('~/') ? join(homedir(), root.slice(2)) : root
    return realOrSelf(isAbsolute(expanded) ? expanded : resolve(workspaceRoot, expanded))
  })
}

function linuxTools(path: string | undefined): { bwrap: string; socat: string; rg: string } | { missing: string[] } {
  const env = { PATH: path ?? '' }
  const found = {
    bwrap: findOnPath('bwrap', env, 'linux'),
    socat: findOnPath('socat', env, 'linux'),
    rg: findOnPath('rg', env, 'linux')
  }
  const missing = [
    found.bwrap ? null : 'bubblewrap (bwrap)',
    found.socat ? null : 'socat',
    found.rg ? null : 'ripgrep (rg)'
  ].filter((name): name is string => name !== null)
  return missing.length > 0 ? { missing } : (found as { bwrap: string; socat: string; rg: string })
}

function run(wrapped: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile('/bin/sh', ['-c', wrapped], { timeout: 20_000 }, (error, _stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
      done({ code, stderr: String(stderr) })
    })
  })
}

/** bubblewrap's arguments with the task shell's terminal bound in after its own /dev; null if there is none. */
function withTty(args: readonly string[], tty: string): string[] | null {
  const at = args.findIndex((arg, index) => arg === '--dev' && args[index + 1] === '/dev')
  if (at < 0) return null
  return [...args.slice(0, at + 2), '--dev-bind', tty, WARM_TTY, ...args.slice(at + 2)]
}
