import { join } from 'node:path'
import { dialog, safeStorage } from 'electron'
import { createEncryptedSecretStore } from '../core/settings/encrypted-secret-store'
import type { SecretStore } from '../core/settings/secret-store'
import { PROVIDER_ENV_KEYS } from '../../shared/providers/descriptors'

/** API keys encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet). */
export function createSafeStorageSecretStore(dataDir: string): SecretStore {
  return createEncryptedSecretStore({
    file: join(dataDir, 'secrets.safe.json'),
    cipher: {
      isStrong: () =>
        safeStorage.isEncryptionAvailable() &&
        (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
      encrypt: (plain) => safeStorage.encryptString(plain),
      decrypt: (encrypted) => safeStorage.decryptString(encrypted)
    },
    confirmWeakStorage: async () => {
      const { response } = await dialog.showMessageBox({
        type: 'warning',
        buttons: ['Store anyway', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        title: 'No keychain available',
        message: 'No OS keychain (Secret Service or KWallet) was found.',
        detail:
          'Modus can store the API key in a file only you can read, but without real encryption. ' +
          `You can also set ${PROVIDER_ENV_KEYS.join(' or ')} in your environment instead.`
      })
      return response === 0
    }
  })
}
