import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

/** The packaged app must not be usable as a Node runtime or load code from outside its asar. */
describe('electron-builder fuses', () => {
  it('turns off RunAsNode, Node options and inspect arguments; turns on cookie encryption and ASAR integrity', () => {
    const config = parse(readFileSync(resolve(__dirname, '../../electron-builder.yml'), 'utf8'))
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true
    })
  })
})
