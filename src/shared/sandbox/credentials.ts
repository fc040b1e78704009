/**
 * Credential stores a sandboxed command cannot read unless its mode gives one back. Claude Code's
 * sandbox lets commands read the whole disk; an untrusted repository's test script could then copy
 * a key into the workspace, where the agent reads it and sends it to the model. This is the list of
 * what is hidden (home-relative, `~/`); Modus's own data dir (its secrets file) is hidden too and
 * cannot be given back (it is not in this table).
 */
export const CREDENTIAL_STORES = [
  { id: 'ssh', label: 'SSH keys', paths: ['~/.ssh'] },
  { id: 'aws', label: 'AWS credentials', paths: ['~/.aws'] },
  { id: 'azure', label: 'Azure CLI credentials', paths: ['~/.azure'] },
  { id: 'gcloud', label: 'Google Cloud credentials', paths: ['~/.config/gcloud'] },
  { id: 'kube', label: 'Kubernetes config', paths: ['~/.kube'] },
  { id: 'docker', label: 'Docker registry logins', paths: ['~/.docker/config.json'] },
  { id: 'npmrc', label: 'npm tokens', paths: ['~/.npmrc'] },
  { id: 'pypirc', label: 'PyPI tokens', paths: ['~/.pypirc'] },
  { id: 'netrc', label: '.netrc logins', paths: ['~/.netrc'] },
  {
    id: 'git-credentials',
    label: 'git stored credentials',
    paths: ['~/.git-credentials', '~/.config/git/credentials']
  },
  { id: 'gnupg', label: 'GnuPG keys', paths: ['~/.gnupg'] },
  {
    id: 'browser-profiles',
    label: 'browser profiles (cookies, saved passwords)',
    paths: [
      '~/.mozilla',
      '~/.config/google-chrome',
      '~/.config/chromium',
      '~/.config/BraveSoftware',
      '~/.config/microsoft-edge',
      '~/.config/vivaldi',
      '~/.config/opera',
      '~/snap/firefox',
      '~/snap/chromium',
      '~/.var/app/org.mozilla.firefox',
      '~/.var/app/com.google.Chrome',
      '~/Library/Application Support/Google/Chrome',
      '~/Library/Application Support/Chromium',
      '~/Library/Application Support/Firefox',
      '~/Library/Application Support/BraveSoftware',
      '~/Library/Application Support/Microsoft Edge',
      '~/Library/Safari',
      '~/Library/Cookies',
      '~/Library/Keychains'
    ]
  }
] as const

export type CredentialStoreId = (typeof CREDENTIAL_STORES)[number]['id']
export const CREDENTIAL_STORE_IDS = CREDENTIAL_STORES.map((store) => store.id) as [
  CredentialStoreId,
  ...CredentialStoreId[]
]

/** The home-relative paths hidden from a sandboxed command whose mode gives back `readable`. */
export function hiddenCredentialPaths(readable: readonly string[] = []): string[] {
  return CREDENTIAL_STORES.filter((store) => !readable.includes(store.id)).flatMap((store) => [...store.paths])
}

/** "~/.ssh, ~/.aws" for a store id, for the editor and reasons. */
export const credentialStorePaths = (id: CredentialStoreId): string =>
  CREDENTIAL_STORES.find((store) => store.id === id)!.paths.join(', ')
