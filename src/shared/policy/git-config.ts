/**
 * Git runs programs named in its config: the fsmonitor hook, hooks, pagers, external diff and
 * textconv drivers, signature checkers, ssh, credential helpers, editors, filter drivers, `!`
 * aliases. A repository's own config (`.git/config` and what it includes) is the repository's
 * code. This file says, in one place, how Modus runs git without it: the settings given on git's
 * command line that win over every config file, the flags that turn diff drivers off where the
 * subcommand takes them, and which repository config keys are known to run nothing (every other
 * key is treated as possibly running code). The checkpoint code and auto-approved git commands
 * both use it.
 */

/** `-c key=value` settings that win over every config file and name no program of the repository's. */
export function gitNeutralSettings(nullDevice = '/dev/null'): string[] {
  return [
    'core.fsmonitor=false',
    `core.hooksPath=${nullDevice}`,
    'core.pager=cat',
    'core.sshCommand=ssh',
    'core.editor=:',
    'sequence.editor=:',
    'log.showSignature=false',
    'gpg.program=gpg',
    'gpg.openpgp.program=gpg',
    'gpg.x509.program=gpgsm',
    'gpg.ssh.program=ssh-keygen',
    // An empty value empties the list of credential helpers.
    'credential.helper=',
    'protocol.ext.allow=never'
  ]
}

/** Subcommands that take `--no-textconv`, and those that also take `--no-ext-diff` (checked against git 2.39). */
const NO_TEXTCONV = new Set([
  'diff',
  'log',
  'show',
  'whatchanged',
  'format-patch',
  'diff-tree',
  'diff-index',
  'diff-files',
  'blame',
  'annotate',
  'grep',
  'range-diff'
])
// All of them but grep.
const NO_EXT_DIFF = new Set([...NO_TEXTCONV].filter((subcommand) => subcommand !== 'grep'))

/** The flags inserted right after the subcommand word: they turn the repository's diff drivers off. */
export function gitSubcommandFlags(subcommand: string | undefined): string[] {
  if (!subcommand) return []
  return [
    ...(NO_EXT_DIFF.has(subcommand) ? ['--no-ext-diff'] : []),
    ...(NO_TEXTCONV.has(subcommand) ? ['--no-textconv'] : [])
  ]
}

/** Options the model might add after the subcommand to turn the drivers back on. */
const REENABLING = /^--(?:textconv|ext-diff)$/

export const reenablesDriver = (arg: string): boolean => REENABLING.test(arg)

/**
 * Keys a repository's config may hold that run nothing, or that the settings above override.
 * Patterns: `*` is one dotted name part (a remote, a branch). A key not listed here may run code.
 */
const INERT_KEYS = [
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotepath',
  'core.commentchar',
  'core.commentstring',
  'core.abbrev',
  'core.untrackedcache',
  'core.splitindex',
  'core.checkstat',
  'core.trustctime',
  'core.preloadindex',
  'core.fscache',
  'core.longpaths',
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'core.multipackindex',
  'core.compression',
  'core.looseCompression',
  'core.bigfilethreshold',
  'core.whitespace',
  'core.warnambiguousrefs',
  'core.protecthfs',
  'core.protectntfs',
  'core.excludesfile',
  'core.attributesfile',
  // Overridden on the command line (gitNeutralSettings, --no-pager).
  'core.fsmonitor',
  'core.hookspath',
  'core.pager',
  'core.sshcommand',
  'core.editor',
  'sequence.editor',
  'log.showsignature',
  'gpg.program',
  'gpg.*.program',
  'credential.helper',
  'pager.*',
  'extensions.*',
  'index.version',
  'index.threads',
  'index.skiphash',
  'feature.*',
  'remote.*.url',
  'remote.*.pushurl',
  'remote.*.fetch',
  'remote.*.push',
  'remote.*.tagopt',
  'remote.*.prune',
  'remote.*.mirror',
  'remote.*.promisor',
  'remote.*.partialclonefilter',
  'branch.*.remote',
  'branch.*.merge',
  'branch.*.rebase',
  'branch.*.pushremote',
  'branch.*.description',
  'submodule.*.url',
  'submodule.*.active',
  'submodule.*.branch',
  'submodule.*.path',
  'user.name',
  'user.email',
  'user.signingkey',
  'author.name',
  'author.email',
  'committer.name',
  'committer.email',
  'init.defaultbranch',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'push.autosetupremote',
  'fetch.prune',
  'fetch.prunetags',
  'merge.ff',
  'merge.conflictstyle',
  'rebase.autosquash',
  'rebase.autostash',
  'rebase.updaterefs',
  'color.ui',
  'color.*',
  'color.*.*',
  'column.ui',
  'status.*',
  'log.date',
  'log.decorate',
  'log.abbrevcommit',
  'log.follow',
  'diff.renames',
  'diff.algorithm',
  'diff.colormoved',
  'diff.mnemonicprefix',
  'diff.noprefix',
  'diff.relative',
  'diff.indentheuristic',
  'commit.gpgsign',
  'tag.gpgsign',
  'commit.verbose',
  'gc.auto',
  'gc.autodetach',
  'maintenance.auto',
  'maintenance.strategy',
  'advice.*',
  'help.autocorrect',
  'lfs.repositoryformatversion',
  'include.path'
].map((pattern) => new RegExp(`^${pattern.toLowerCase().replace(/\./g, '\\.').replace(/\*/g, '[^.]+')}$`))

/** `diff.*.textconv` and `diff.*.command` drivers, and `diff.external`: off only where the flags above go. */
const DIFF_DRIVER = /^diff\.(?:external|[^.]+\.(?:textconv|command))$/

/** Normalises a key as git does: section and variable names are case-insensitive, a subsection is not. */
function normalisedKey(key: string): string {
  const first = key.indexOf('.')
  const last = key.lastIndexOf('.')
  if (first === -1) return key.toLowerCase()
  if (first === last) return key.toLowerCase()
  return `${key.slice(0, first).toLowerCase()}.${key.slice(first + 1, last)}.${key.slice(last + 1).toLowerCase()}`
}

/**
 * Whether a key of the repository's config may make this git subcommand run a program Modus does
 * not neutralise. Matched case-insensitively on section and name; subsections keep their case.
 */
export function runsRepositoryCode(key: string, subcommand: string | undefined): boolean {
  const lower = normalisedKey(key).toLowerCase()
  // An alias runs only when it is the subcommand given (git's own commands cannot be aliased).
  if (lower.startsWith('alias.')) return lower.slice('alias.'.length) === subcommand?.toLowerCase()
  if (DIFF_DRIVER.test(lower)) return !(subcommand && NO_EXT_DIFF.has(subcommand) && NO_TEXTCONV.has(subcommand))
  return !INERT_KEYS.some((pattern) => pattern.test(lower))
}

/** One `scope\0key\nvalue\0` record of `git config --list --show-scope -z`. */
export interface GitConfigEntry {
  scope: string
  key: string
  value: string
}

export function parseGitConfigList(output: string): GitConfigEntry[] {
  const fields = output.split('\0')
  const entries: GitConfigEntry[] = []
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [key, ...value] = fields[i + 1].split('\n')
    entries.push({ scope: fields[i], key, value: value.join('\n') })
  }
  return entries
}

/** Scopes that belong to the repository (the user's global and system config are the user's own). */
export const REPOSITORY_SCOPES = new Set(['local', 'worktree'])

/** The first key of the repository's config that may run code for this subcommand, or null. */
export function repositoryCodeKey(entries: readonly GitConfigEntry[], subcommand: string | undefined): string | null {
  for (const entry of entries) {
    if (!REPOSITORY_SCOPES.has(entry.scope)) continue
    if (/^includeif\./i.test(entry.key)) return entry.key
    if (runsRepositoryCode(entry.key, subcommand)) return entry.key
  }
  return null
}
