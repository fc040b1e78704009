/**
 * Variables that change which program runs or what it loads: an assignment to one of them
 * (`PATH=…`, `LD_PRELOAD=…`, `env NODE_OPTIONS=… node`, `export BASH_ENV=…`) is never
 * auto-approved. Plain ones (`NODE_ENV=test`, `CI=1`) are seen through.
 */
const EXACT = new Set([
  'PATH', 'ENV', 'BASH_ENV', 'CDPATH', 'IFS', 'SHELL', 'SHELLOPTS', 'BASHOPTS', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4',
  'HOME', 'ZDOTDIR', 'XDG_CONFIG_HOME', 'XDG_CONFIG_DIRS', 'XDG_DATA_DIRS', 'FPATH', 'HISTFILE', 'INPUTRC', 'TMPDIR',
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'PAGER', 'MANPAGER', 'GIT_PAGER', 'EDITOR', 'VISUAL',
  'BROWSER', 'TERMINAL', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'SUDO_EDITOR', 'GCONV_PATH',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'MAVEN_OPTS', 'GRADLE_OPTS',
  'GEM_HOME', 'GEM_PATH', 'BUNDLE_GEMFILE', 'CARGO_HOME', 'RUSTC', 'RUSTC_WRAPPER', 'RUSTFLAGS', 'CC', 'CXX', 'LD', 'MAKEFLAGS', 'MAKE',
  'GOFLAGS', 'GOROOT', 'GOPATH', 'GOTOOLCHAIN', 'DOTNET_ROOT', 'LUA_PATH', 'LUA_CPATH', 'LUA_INIT', 'TCLLIBPATH', 'R_PROFILE', 'R_PROFILE_USER',
  'PHPRC', 'PHP_INI_SCAN_DIR', 'OPENSSL_CONF', 'CURL_HOME', 'WGETRC', 'KUBECONFIG', 'DOCKER_HOST', 'DOCKER_CONFIG', 'NPM_CONFIG_USERCONFIG',
  'COMSPEC', 'PATHEXT', 'PSModulePath', 'MALLOC_CONF'
])
const FAMILIES = /^(LD_|DYLD_|GIT_|NPM_CONFIG_|YARN_|PNPM_|PYTHON|PERL|RUBY|BASH_FUNC_|BUN_|DENO_|ELECTRON_|PIP_|UV_|POETRY_|COMPOSER|CONDA|VIRTUAL_ENV|LUA_|NODE_)/i
const PLAIN_FAMILY = new Set(['NODE_ENV', 'NODE_NO_WARNINGS', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONHASHSEED', 'PYTHONIOENCODING', 'PYTHONUTF8', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_DATE', 'GIT_TERMINAL_PROMPT'])

/** The variable an assignment word sets (`A=1`, `A+=x`, `A[0]=x`). */
export const assignedName = (word: string): string | undefined => /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/.exec(word)?.[1]

export function changesWhatRuns(name: string): boolean {
  if (PLAIN_FAMILY.has(name)) return false
  return EXACT.has(name) || EXACT.has(name.toUpperCase()) || FAMILIES.test(name)
}

/** Builtins that set variables from their arguments. */
export const DECLARING = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'set', 'setenv', 'launchctl'])
