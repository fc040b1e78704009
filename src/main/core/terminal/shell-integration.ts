import { existsSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { basename, delimiter, join } from 'node:path'
import { writeFileAtomic } from '../fs/atomic-write'

/**
 * How Modus starts a task shell and runs a command in it. The shell loads the user's own rc files
 * (any PS1, PROMPT_COMMAND or zsh theme), then defines `__modus_run <nonce>`: it prints a start
 * marker, runs the command text read from `<scripts>/<nonce>.sh` (so quoting, heredocs and
 * multi-line commands need no escaping), and prints an end marker with the exit code and cwd.
 * If a user's Ctrl-C aborts the command list, the shell's prompt hook prints the end marker.
 */
export type ShellKind = 'bash' | 'zsh' | 'pwsh'

export interface ShellLaunch {
  kind: ShellKind
  file: string
  args: string[]
  /** Variables the integration needs at start; the scripts unset them. */
  env: Record<string, string>
}

export interface ShellChoice {
  kind: ShellKind
  file: string
}

const OSC = '\\033]6973;'

/**
 * node-pty leaves its pty masters open across exec, so a task shell inherits the masters of the
 * terminals started before it: any command holding one (a sandboxed one included) could type into
 * that terminal's shell. The shell closes them first. `glob` makes an empty match vanish (zsh).
 */
const CLOSE_PTY_MASTERS = (glob: string): string => `for __modus_fd in /proc/$$/fd/*${glob}; do
  if [[ $__modus_fd -ef /dev/ptmx ]]; then __modus_fd=\${__modus_fd##*/}; exec {__modus_fd}>&-; fi
done
builtin unset __modus_fd`

const BASH_INIT = `# Modus shell integration (bash). Generated; do not edit.
${CLOSE_PTY_MASTERS('')}
if [ -z "$MODUS_SKIP_USER_RC" ]; then
  [ -r /etc/bash.bashrc ] && . /etc/bash.bashrc
  [ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc"
fi
builtin unset MODUS_SKIP_USER_RC
builtin set +e
__modus_dir="$MODUS_SCRIPT_DIR"
builtin unset MODUS_SCRIPT_DIR
__modus_active=
# A "return" in the command ends this function, not __modus_run, so the end marker still prints.
__modus_exec() { builtin eval "$(<"$__modus_script")"; }
HISTCONTROL="ignorespace\${HISTCONTROL:+:$HISTCONTROL}"
__modus_run() {
  __modus_active="$1"
  builtin shift
  builtin printf '${OSC}S;%s\\007' "$__modus_active"
  builtin local __modus_status=0 __modus_file="$__modus_dir/$__modus_active"
  if [[ -r "$__modus_file.cwd" ]]; then
    builtin cd -- "$(<"$__modus_file.cwd")" || __modus_status=$?
  fi
  if [[ $__modus_status == 0 ]]; then
    __modus_script="$__modus_file.sh"
    __modus_exec
    __modus_status=$?
  fi
  builtin local __modus_nonce="$__modus_active"
  __modus_active=
  builtin printf '${OSC}E;%s;%s;%s\\007' "$__modus_nonce" "$__modus_status" "$PWD"
}
__modus_prompt_hook() {
  builtin local __modus_status=$?
  if [[ -n $__modus_active ]]; then
    builtin printf '${OSC}E;%s;%s;%s\\007' "$__modus_active" "$__modus_status" "$PWD"
    __modus_active=
  fi
  builtin return $__modus_status
}
if [[ "$(builtin declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
  PROMPT_COMMAND=(__modus_prompt_hook "\${PROMPT_COMMAND[@]}")
else
  PROMPT_COMMAND="__modus_prompt_hook\${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
fi
builtin printf '${OSC}R;%s\\007' "$MODUS_READY_NONCE"
builtin unset MODUS_READY_NONCE
`

const ZSH_ENV = `# Modus shell integration (zsh). Generated; do not edit.
${CLOSE_PTY_MASTERS('(N)')}
__modus_zdotdir="$ZDOTDIR"
ZDOTDIR="\${MODUS_USER_ZDOTDIR:-$HOME}"
if [[ -z "$MODUS_SKIP_USER_RC" && -r "$ZDOTDIR/.zshenv" ]]; then builtin source "$ZDOTDIR/.zshenv"; fi
MODUS_USER_ZDOTDIR="$ZDOTDIR"
ZDOTDIR="$__modus_zdotdir"
`

const ZSH_RC = `# Modus shell integration (zsh). Generated; do not edit.
ZDOTDIR="$MODUS_USER_ZDOTDIR"
builtin unset MODUS_USER_ZDOTDIR __modus_zdotdir
if [[ -z "$MODUS_SKIP_USER_RC" && -r "$ZDOTDIR/.zshrc" ]]; then builtin source "$ZDOTDIR/.zshrc"; fi
builtin unset MODUS_SKIP_USER_RC
builtin setopt HIST_IGNORE_SPACE
builtin unsetopt ERR_EXIT
__modus_dir="$MODUS_SCRIPT_DIR"
builtin unset MODUS_SCRIPT_DIR
__modus_active=
# A "return" in the command ends this function, not __modus_run, so the end marker still prints.
__modus_exec() { builtin eval "$(<"$__modus_script")"; }
__modus_run() {
  __modus_active="$1"
  builtin shift
  builtin printf '${OSC}S;%s\\007' "$__modus_active"
  builtin local __modus_status=0 __modus_file="$__modus_dir/$__modus_active"
  if [[ -r "$__modus_file.cwd" ]]; then
    builtin cd -q -- "$(<"$__modus_file.cwd")" || __modus_status=$?
  fi
  if [[ $__modus_status == 0 ]]; then
    __modus_script="$__modus_file.sh"
    __modus_exec
    __modus_status=$?
  fi
  builtin local __modus_nonce="$__modus_active"
  __modus_active=
  builtin printf '${OSC}E;%s;%s;%s\\007' "$__modus_nonce" "$__modus_status" "$PWD"
}
__modus_precmd() {
  builtin local __modus_status=$?
  if [[ -n $__modus_active ]]; then
    builtin printf '${OSC}E;%s;%s;%s\\007' "$__modus_active" "$__modus_status" "$PWD"
    __modus_active=
  fi
  builtin return $__modus_status
}
precmd_functions=(__modus_precmd $precmd_functions)
builtin printf '${OSC}R;%s\\007' "$MODUS_READY_NONCE"
builtin unset MODUS_READY_NONCE
`

// PowerShell: try/finally prints the end marker even when Ctrl-C stops the pipeline.
const PWSH_INIT = `# Modus shell integration (PowerShell). Generated; do not edit.
$global:__modusDir = $env:MODUS_SCRIPT_DIR
Remove-Item Env:MODUS_SCRIPT_DIR -ErrorAction SilentlyContinue
function global:__modus_run([string]$Nonce) {
  $esc = [char]27; $bel = [char]7
  [Console]::Write("$esc]6973;S;$Nonce$bel")
  $global:LASTEXITCODE = 0
  $failed = $false
  $file = Join-Path $global:__modusDir $Nonce
  try {
    if (Test-Path -LiteralPath "$file.cwd") { Set-Location -LiteralPath (Get-Content -LiteralPath "$file.cwd" -Raw) -ErrorAction Stop }
    . "$file.ps1"
    if (-not $?) { $failed = $true }
  } catch {
    $failed = $true
    Write-Error -ErrorRecord $_
  } finally {
    $code = if ($global:LASTEXITCODE) { $global:LASTEXITCODE } elseif ($failed) { 1 } else { 0 }
    [Console]::Write("$esc]6973;E;$Nonce;$code;$($PWD.ProviderPath)$bel")
  }
}
[Console]::Write("$([char]27)]6973;R;$($env:MODUS_READY_NONCE)$([char]7)")
Remove-Item Env:MODUS_READY_NONCE -ErrorAction SilentlyContinue
`

export function findOnPath(
  name: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform
): string | null {
  const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : delimiter)
  const exts = platform === 'win32' ? ['.exe', '.cmd', ''] : ['']
  for (const dir of dirs) {
    if (!dir) continue
    for (const ext of exts) {
      const candidate = join(dir, name + ext)
      if (existsSync(candidate)) return candidate
    }
  }
  return null
}

/** bash or zsh from $SHELL (bash otherwise) on Linux/macOS; pwsh, else Windows PowerShell, on Windows. */
export function chooseShell(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  preferred?: string
): ShellChoice {
  if (platform === 'win32') {
    const pwsh = preferred ?? findOnPath('pwsh', env, platform)
    return { kind: 'pwsh', file: pwsh ?? 'powershell.exe' }
  }
  const wanted = preferred ?? env.SHELL ?? ''
  const name = basename(wanted)
  if (
    (name === 'zsh' || name === 'bash') &&
    (wanted.includes('/') ? existsSync(wanted) : findOnPath(name, env, platform))
  ) {
    return { kind: name, file: wanted }
  }
  const bash = findOnPath('bash', env, platform) ?? '/bin/bash'
  return { kind: 'bash', file: bash }
}

/** The scripts are the user's shell setup: readable by the user alone. */
const writeAtomic = (path: string, text: string): Promise<void> => writeFileAtomic(path, text, { mode: 0o600 })

/** Writes the integration scripts under `<dir>` and returns how to start the shell. */
export async function prepareShellLaunch(options: {
  choice: ShellChoice
  integrationDir: string
  scriptDir: string
  readyNonce: string
  loadUserRc: boolean
  userZdotdir?: string
}): Promise<ShellLaunch> {
  const { choice, integrationDir, scriptDir, readyNonce } = options
  await mkdir(integrationDir, { recursive: true, mode: 0o700 })
  await mkdir(scriptDir, { recursive: true, mode: 0o700 })
  await chmod(scriptDir, 0o700).catch(() => undefined)
  const env: Record<string, string> = { MODUS_SCRIPT_DIR: scriptDir, MODUS_READY_NONCE: readyNonce }
  if (!options.loadUserRc) env.MODUS_SKIP_USER_RC = '1'
  if (choice.kind === 'bash') {
    const rc = join(integrationDir, 'bash-init.sh')
    await writeAtomic(rc, BASH_INIT)
    return { kind: 'bash', file: choice.file, args: ['--noprofile', '--rcfile', rc, '-i'], env }
  }
  if (choice.kind === 'zsh') {
    const dir = join(integrationDir, 'zsh')
    await mkdir(dir, { recursive: true, mode: 0o700 })
    await writeAtomic(join(dir, '.zshenv'), ZSH_ENV)
    await writeAtomic(join(dir, '.zshrc'), ZSH_RC)
    if (options.userZdotdir) env.MODUS_USER_ZDOTDIR = options.userZdotdir
    env.ZDOTDIR = dir
    return { kind: 'zsh', file: choice.file, args: ['-i'], env }
  }
  const init = join(integrationDir, 'pwsh-init.ps1')
  // Windows PowerShell 5 reads a BOM-less script as ANSI; the BOM keeps it UTF-8.
  await writeAtomic(init, '\ufeff' + PWSH_INIT)
  const args = ['-NoLogo', '-NoExit', '-ExecutionPolicy', 'Bypass', '-File', init]
  if (!options.loadUserRc) args.unshift('-NoProfile')
  return { kind: 'pwsh', file: choice.file, args, env }
}

/** Writes a command's text (and its cwd) where `__modus_run <nonce>` reads them. */
export async function writeCommandScript(
  kind: ShellKind,
  scriptDir: string,
  nonce: string,
  command: string,
  cwd: string | null
): Promise<string[]> {
  const base = join(scriptDir, nonce)
  const scriptPath = kind === 'pwsh' ? `${base}.ps1` : `${base}.sh`
  const files = [scriptPath]
  await writeFile(scriptPath, kind === 'pwsh' ? '\ufeff' + command : command, { mode: 0o600 })
  if (cwd !== null) {
    await writeFile(`${base}.cwd`, cwd, { mode: 0o600 })
    files.push(`${base}.cwd`)
  }
  return files
}

/**
 * The line typed into the shell. bash/zsh: Ctrl-U first clears anything the user left at the
 * prompt, and the leading space keeps it out of the history.
 */
export function invocationLine(kind: ShellKind, nonce: string): string {
  return kind === 'pwsh' ? ` __modus_run ${nonce}\r` : `\x15 __modus_run ${nonce}\r`
}
