import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createEncryptedSecretStore, type Cipher } from '../../../src/main/core/settings/encrypted-secret-store'

// A reversible stand-in for the OS keychain: XOR with a fixed byte, enough to tell ciphertext from plaintext.
const xorCipher = (strong: boolean): Cipher => ({
  isStrong: () => strong,
  encrypt: (plain) => Buffer.from(Buffer.from(plain).map((byte) => byte ^ 0x5a)),
  decrypt: (data) => Buffer.from(data.map((byte) => byte ^ 0x5a)).toString()
})

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'modus-secrets-')), 'secrets.safe.json')

describe('encrypted secret store', () => {
  it('stores keys encrypted in a file only the user can read', async () => {
    const file = tempFile()
    const store = createEncryptedSecretStore({ file, cipher: xorCipher(true), confirmWeakStorage: vi.fn() })
    await store.set('provider:anthropic', 'sk-ant-secret-value')
    expect(await store.get('provider:anthropic')).toBe('sk-ant-secret-value')
    expect(readFileSync(file, 'utf8')).not.toContain('sk-ant-secret-value')
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    await store.delete('provider:anthropic')
    expect(await store.get('provider:anthropic')).toBeUndefined()
  })

  it('decrypts a key once while the file is unchanged, and sees a change made by another writer', async () => {
    const file = tempFile()
    const cipher = xorCipher(true)
    const decrypt = vi.spyOn(cipher, 'decrypt')
    const store = createEncryptedSecretStore({ file, cipher, confirmWeakStorage: vi.fn() })
    await store.set('embeddings:openai', 'sk-first')
    expect(await store.get('embeddings:openai')).toBe('sk-first')
    expect(await store.get('embeddings:openai')).toBe('sk-first')
    expect(decrypt).toHaveBeenCalledTimes(1)

    // Another process (another store on the same file) replaces the key, then a third writes the file in place.
    const other = createEncryptedSecretStore({ file, cipher: xorCipher(true), confirmWeakStorage: vi.fn() })
    await other.set('embeddings:openai', 'sk-second')
    expect(await store.get('embeddings:openai')).toBe('sk-second')
    const data = cipher.encrypt('sk-third-longer').toString('base64')
    writeFileSync(file, JSON.stringify({ 'embeddings:openai': { scheme: 'os', data } }))
    expect(await store.get('embeddings:openai')).toBe('sk-third-longer')
    await other.delete('embeddings:openai')
    expect(await store.get('embeddings:openai')).toBeUndefined()
  })

  it('asks once before storing without a real keychain, and refuses when declined', async () => {
    const declined = createEncryptedSecretStore({
      file: tempFile(),
      cipher: xorCipher(false),
      confirmWeakStorage: vi.fn(async () => false)
    })
    await expect(declined.set('provider:openai', 'sk-x')).rejects.toThrow(/keychain/)

    const confirm = vi.fn(async () => true)
    const accepted = createEncryptedSecretStore({
      file: tempFile(),
      cipher: xorCipher(false),
      confirmWeakStorage: confirm
    })
    await accepted.set('a', '1')
    await accepted.set('b', '2')
    expect(confirm).toHaveBeenCalledTimes(1)
    expect(await accepted.get('b')).toBe('2')
  })
})
