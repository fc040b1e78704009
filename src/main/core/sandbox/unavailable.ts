/** Why the sandbox cannot start, in the user's words, with the fix (known failures: toolchain item 30). */
export interface Unavailable {
  reason: string
  fix: string
}

const INSTALL_FIX =
  'install them (Debian/Ubuntu: sudo apt-get install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep), then reopen the mode editor'

export function unsupportedPlatform(platform: NodeJS.Platform): Unavailable | null {
  if (platform === 'linux' || platform === 'darwin') return null
  if (platform === 'win32')
    return {
      reason: 'the OS sandbox is not available on Windows',
      fix: 'run Modus in WSL2, on Linux or on macOS to sandbox commands; here every command of a sandboxed mode asks'
    }
  return {
    reason: `the OS sandbox is not available on ${platform}`,
    fix: 'run Modus on Linux or macOS to sandbox commands'
  }
}

export function missingTools(missing: readonly string[]): Unavailable {
  return { reason: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`, fix: INSTALL_FIX }
}

/** What bubblewrap printed when it could not set up the sandbox, read as a cause and a fix. */
export function refusedByKernel(stderr: string): Unavailable {
  const said =
    stderr
      .trim()
      .split('\n')
      .find((line) => line.includes('bwrap')) ??
    stderr.trim().split('\n')[0] ??
    ''
  const detail = said ? ` (${said.slice(0, 200)})` : ''
  if (/RTM_NEWADDR|setting up uid map|No permissions to create new namespace|unprivileged_userns/i.test(stderr))
    return {
      reason: `the kernel refuses unprivileged user namespaces${detail}, as Ubuntu 24.04 and later do with AppArmor`,
      fix: 'allow bubblewrap an AppArmor profile with "userns" (or run: sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0)'
    }
  if (/make \/ slave|Operation not permitted|Creating new namespace failed/i.test(stderr))
    return {
      reason: `this container does not allow the namespaces bubblewrap needs${detail}`,
      fix: 'run Modus outside the container, or start the container with user namespaces allowed (e.g. --security-opt seccomp=unconfined --cap-add SYS_ADMIN)'
    }
  return {
    reason: `bubblewrap could not start a sandbox${detail}`,
    fix: 'check that "bwrap --ro-bind / / true" works for your user'
  }
}
