import { promises as fs } from 'node:fs'
import { z } from 'zod'
import { UserFacingError } from '../../../shared/contract/dispatch'
import { PROVIDER_ENV_KEYS } from '../../../shared/providers/descriptors'
import { writeFileAtomic } from '../fs/atomic-write'
import type { SecretStore } from './secret-store'

/** What the OS keychain offers (Electron's safeStorage supplies it; the core never imports electron). */
export interface Cipher {
  /** False on Linux without a keyring, where "encryption" would be a fixed, public key. */
  isStrong(): boolean
  encrypt(plain: string): Buffer
  decrypt(encrypted: Buffer): string
}

const SecretsFile = z.record(z.string(), z.object({ scheme: z.enum(['os', 'weak']), data: z.string() }))

/**
 * Secrets encrypted with the OS keychain, one entry per name, in a 0600 file. Where the keychain is
 * not strong, it asks the user once (`confirmWeakStorage`) before storing anything.
 */
export function createEncryptedSecretStore(deps: {
  file: string
  cipher: Cipher
  confirmWeakStorage: () => Promise<boolean>
}): SecretStore {
  let weakStorageAccepted = false
  const read = async (): Promise<z.infer<typeof SecretsFile>> => {
    const text = await fs.readFile(deps.file, 'utf8').catch(() => null)
    if (text === null) return {}
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const parsed = SecretsFile.safeParse(json)
    if (!parsed.success)
      throw new Error(`${deps.file} is damaged; it was kept as it is. Fix or remove it to store keys again.`)
    return parsed.data
  }
  const write = (secrets: z.infer<typeof SecretsFile>): Promise<void> =>
    writeFileAtomic(deps.file, JSON.stringify(secrets, null, 2), { mode: 0o600 })

  // Each codebase search asks for the embeddings key: the file is read and the key decrypted again
  // only when the file's identity or times changed (any writer, this process or another).
  let cached: { stamp: string; values: Map<string, string | undefined> } | null = null
  const stampOf = async (): Promise<string> => {
    const info = await fs.stat(deps.file, { bigint: true }).catch(() => null)
    return info ? `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}` : 'absent'
  }

  return {
    async get(name) {
      const stamp = await stampOf()
      if (cached?.stamp !== stamp) cached = { stamp, values: new Map() }
      const values = cached.values
      if (values.has(name)) return values.get(name)
      const entry = (await read())[name]
      const value = entry ? deps.cipher.decrypt(Buffer.from(entry.data, 'base64')) : undefined
      values.set(name, value)
      return value
    },
    async set(name, value) {
      const strong = deps.cipher.isStrong()
      if (!strong && !weakStorageAccepted) {
        weakStorageAccepted = await deps.confirmWeakStorage()
        if (!weakStorageAccepted) {
          throw new UserFacingError(
            'no_keychain',
            `No OS keychain is available, and storing the key without one was declined. Set ${PROVIDER_ENV_KEYS.join(' or ')} instead.`
          )
        }
      }
      const data = deps.cipher.encrypt(value).toString('base64')
      await write({ ...(await read()), [name]: { scheme: strong ? 'os' : 'weak', data } })
    },
    async delete(name) {
      const secrets = await read()
      if (!(name in secrets)) return
      delete secrets[name]
      await write(secrets)
    }
  }
}
