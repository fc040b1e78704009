import { promises as fs } from 'node:fs'
import { z } from 'zod'
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
    if (!parsed.success) throw new Error(`${file} is damaged; it was kept as it is. Fix or remove it to store keys again.`)
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

/** Environment variables always work, so a CLI user needs no stored key. */
export const ENV_KEY_BY_KIND: Record<string, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-compatible': 'OPENAI_API_KEY'
}

export const secretNameForProvider = (providerId: string): string => `provider:${providerId}`

/** The key a provider will use: the stored one, else the kind's environment variable. */
export async function resolveApiKey(
  secrets: SecretStore,
  provider: { id: string; kind: string },
  env: Record<string, string | undefined> = process.env
): Promise<{ key: string | undefined; source: 'stored' | 'env' | 'none' }> {
  const stored = await secrets.get(secretNameForProvider(provider.id)).catch(() => undefined)
  if (stored) return { key: stored, source: 'stored' }
  const fromEnv = env[ENV_KEY_BY_KIND[provider.kind] ?? '']
  if (fromEnv) return { key: fromEnv, source: 'env' }
  return { key: undefined, source: 'none' }
}
