import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileSecretStore } from '../../../src/main/core/settings/secret-store'
import { createSettingsHandlers } from '../../../src/main/core/settings/settings-handlers'
import { createSettingsStore } from '../../../src/main/core/settings/settings-store'

describe('command hard limit setting', () => {
  it('is saved, kept when a client omits it, cleared with null, and survives a reload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-limit-'))
    const file = join(dir, 'settings.json')
    const handlers = createSettingsHandlers({
      settings: await createSettingsStore(file),
      secrets: createFileSecretStore(join(dir, 's.json')),
      env: {}
    })
    const base = { mistakeLimit: 3, repetitionLimit: 3, maxRequests: null, maxCostUsd: null }
    expect(
      (await handlers['settings:saveLimits']({ ...base, commandHardLimitSec: 600 })).limits.commandHardLimitSec
    ).toBe(600)
    expect((await handlers['settings:saveLimits']({ ...base, mistakeLimit: 5 })).limits).toMatchObject({
      mistakeLimit: 5,
      commandHardLimitSec: 600
    })

    const reloaded = createSettingsHandlers({
      settings: await createSettingsStore(file),
      secrets: createFileSecretStore(join(dir, 's.json')),
      env: {}
    })
    expect((await reloaded['settings:get']({})).limits.commandHardLimitSec).toBe(600)
    expect(
      (await reloaded['settings:saveLimits']({ ...base, commandHardLimitSec: null })).limits.commandHardLimitSec
    ).toBeNull()
  })
})
