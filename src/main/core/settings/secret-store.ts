import { promises as fs } from 'node:fs'
import { z } from 'zod'
import { PROVIDERS, type ProviderKind } from '../../../shared/providers/descriptors'
import type { EmbeddingsKind } from '../../../shared/contract/settings'
import { writeFileAtomic } from '../fs/atomic-write'

/** Where API keys live. The desktop app backs it with safeStorage; the web host and CLI with a 0600 file. */
export interface SecretStore {
  get(name: string): Promise<string | undefined>
  set(name: string, value: string): Promise<void>
  delete(name: string): Promise<void>
}

const SecretsFile = z.record(z.string(), z.string())

/** Plain-file secrets, readable only by the user (0600), written atomically. */
export function createFileSecretStore(file: string): SecretStore {
  const read = async (): Promise<Record<string, string>> => {
    const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw error
    })
    if (text === null) return {}
    const parsed = SecretsFile.safeParse(safeJson(text))
    if (!parsed.success)
      throw new Error(`${file} is damaged; it was kept as it is. Fix or remove it to store keys again.`)
    return parsed.data
  }
  const write = async (secrets: Record<string, string>) => {
    await writeFileAtomic(file, JSON.stringify(secrets, null, 2), { mode: 0o600 })
    await fs.chmod(file, 0o600).catch(() => undefined)
  }
  return {
    get: async (name) => (await read())[name],
    async set(name, value) {
      await write({ ...(await read()), [name]: value })
    },
    async delete(name) {
      const secrets = await read()
      if (!(name in secrets)) return
      delete secrets[name]
      await write(secrets)
    }
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The official endpoint's host: the only one a provider's environment key goes to unasked. */
const officialHost = (kind: ProviderKind): string | undefined => {
  const url = PROVIDERS[kind].defaultBaseUrl
  return url ? new URL(url).hostname : undefined
}

export const secretNameForProvider = (providerId: string): string => `provider:${providerId}`

export interface KeyTarget {
  id: string
  kind: ProviderKind
  /** The provider's own base URL (settings or `--base-url`); none means the official endpoint. */
  baseUrl?: string
  /** The base URL was typed by the user for this run (`--base-url`), not read from a file. */
  baseUrlFromUser?: boolean
}

/**
 * Whether the kind's environment key may go to this endpoint: only to the provider's official API,
 * or to a URL the user named themselves (the same environment's `*_BASE_URL`, or `--base-url`).
 * A key exported for api.openai.com must not reach whatever base URL a provider entry names.
 */
export function envKeyMayReach(target: KeyTarget, env: Record<string, string | undefined>): boolean {
  const { envKey, baseUrlEnv } = PROVIDERS[target.kind]
  const host = officialHost(target.kind)
  if (!envKey || !host) return false
  const fromEnv = baseUrlEnv ? env[baseUrlEnv]?.trim() : undefined
  const url = target.baseUrl?.trim() || fromEnv
  if (!url || target.baseUrlFromUser || (!target.baseUrl?.trim() && fromEnv)) return true
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' && parsed.hostname === host
  } catch {
    return false
  }
}

/**
 * The key a provider will use: the stored one, else the kind's environment variable where it may
 * go. A damaged secrets file is an error, not "no key".
 */
export async function resolveApiKey(
  secrets: SecretStore,
  provider: KeyTarget,
  env: Record<string, string | undefined> = process.env
): Promise<{ key: string | undefined; source: 'stored' | 'env' | 'none' }> {
  const stored = await secrets.get(secretNameForProvider(provider.id))
  if (stored) return { key: stored, source: 'stored' }
  const variable = PROVIDERS[provider.kind].envKey
  const fromEnv = variable && envKeyMayReach(provider, env) ? env[variable] : undefined
  if (fromEnv) return { key: fromEnv, source: 'env' }
  return { key: undefined, source: 'none' }
}

export const EMBEDDINGS_SECRET = 'embeddings:key'

/**
 * The embeddings key: the stored one, else the provider's own key variable (OPENAI_API_KEY), and
 * that only for the provider's official endpoint (the descriptor says which; a compatible server has none).
 */
export async function resolveEmbeddingsKey(
  secrets: SecretStore,
  endpoint: { kind: EmbeddingsKind; baseUrl?: string },
  env: Record<string, string | undefined> = process.env
): Promise<string | undefined> {
  const stored = await secrets.get(EMBEDDINGS_SECRET)
  if (stored) return stored
  const { envKey, defaultBaseUrl } = PROVIDERS[endpoint.kind]
  if (!envKey || !defaultBaseUrl) return undefined
  const official = envKeyMayReach(
    { id: 'embeddings', kind: endpoint.kind, baseUrl: endpoint.baseUrl ?? defaultBaseUrl },
    env
  )
  return official ? env[envKey] || undefined : undefined
}
