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

/** Options of the variable-setting builtins that take the next word as their value. */
const VALUED: Readonly<Record<string, readonly string[]>> = {
  read: ['-d', '-i', '-n', '-N', '-p', '-t', '-u'],
  mapfile: ['-d', '-n', '-O', '-s', '-u', '-C', '-c'],
  readarray: ['-d', '-n', '-O', '-s', '-u', '-C', '-c'],
  printf: [],
  getopts: []
}

/**
 * The variables a builtin sets from its words (`read PATH`, `read -a PATH`, `printf -v PATH`,
 * `mapfile PATH`, `getopts o PATH`, and the targets of a `declare -n` nameref). A nameref with no
 * target, or one only known at run time, yields `?`: it can later set any variable.
 */
export function namesSetBy(argv: readonly string[]): string[] {
  const [name, ...args] = argv
  if (name === 'declare' || name === 'typeset' || name === 'local') {
    if (!args.some((word) => /^-[A-Za-z]*n/.test(word))) return []
    return args.filter((word) => !word.startsWith('-')).map((word) => (word.includes('=') ? word.slice(word.indexOf('=') + 1) : '?'))
  }
  const valued = VALUED[name]
  if (!valued) return []
  const names: string[] = []
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const word = args[i]
    if (word === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    if (!word.startsWith('-') || word === '-') operands.push(word)
    else if ((name === 'read' && word.startsWith('-a')) || (name === 'printf' && word.startsWith('-v'))) names.push(word.length > 2 ? word.slice(2) : args[++i] ?? '')
    else if (valued.includes(word)) i++
  }
  if (name === 'read') names.push(...operands)
  else if (name === 'mapfile' || name === 'readarray') names.push(operands[operands.length - 1] ?? 'MAPFILE')
  else if (name === 'getopts') names.push(operands[1] ?? '')
  return names
}
