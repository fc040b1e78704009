import { describe, expect, it } from 'vitest'
import {
  AUTO_APPROVE_GRANTS,
  describeProjectGrants,
  projectGrantItems,
  SANDBOX_GRANTS
} from '../../../src/shared/modes/project-grants'
import { AutoApprove, ModeConfig, ModeSandbox } from '../../../src/shared/modes/schema'
import { modesToYaml, MODUS_ONLY_KEYS, parseModesText } from '../../../src/shared/modes/yaml'

// The trust prompt and the Roo import read exhaustive records over the mode schema's fields; these
// tests walk the schema itself, so a field the records left out would show here as well as fail to compile.

const project = (extra: Record<string, unknown>) => ({ slug: 'p', origin: 'project', ...extra })
const ROO_MODE = { slug: 'p', name: 'P', roleDefinition: 'Does things.', groups: ['read', 'edit', 'command'] }

describe('trust prompt grants, one label per auto-approve field of the schema', () => {
  const fields = Object.keys(AutoApprove.shape) as Array<keyof typeof AUTO_APPROVE_GRANTS>

  it('has a grant entry for exactly the fields of the schema', () => {
    expect(Object.keys(AUTO_APPROVE_GRANTS).sort()).toEqual([...fields].sort())
    expect(Object.keys(SANDBOX_GRANTS).sort()).toEqual(Object.keys(ModeSandbox.shape).sort())
  })

  it('lists every toggle a project mode turns on, in the prompt line and in the trust record', () => {
    const toggles = fields.filter((key) => AutoApprove.safeParse({ [key]: true }).success)
    expect(toggles.length).toBeGreaterThanOrEqual(10)
    for (const key of toggles) {
      const mode = project({ autoApprove: { [key]: true } })
      const [line] = describeProjectGrants([mode])
      expect(line, key).toMatch(/^Mode 'p' auto-approves \S/)
      expect(projectGrantItems([mode]), key).toEqual([line])
    }
  })

  it('records every cap a project mode sets; only fields that grant nothing are left out', () => {
    for (const key of fields.filter((field) => !AutoApprove.safeParse({ [field]: true }).success)) {
      const value = AutoApprove.safeParse({ [key]: 5 }).success ? 5 : 60_000
      const items = projectGrantItems([project({ autoApprove: { [key]: value } })])
      const grant = AUTO_APPROVE_GRANTS[key]
      if ('notAGrant' in grant) expect(items, key).toEqual([])
      else expect(items, key).toEqual([expect.stringContaining(String(value))])
    }
  })

  it('lists what an enabled sandbox opens, and nothing while it is off', () => {
    const sandbox = {
      enabled: true,
      network: 'allow-list',
      writableRoots: ['/srv/cache'],
      allowedDomains: ['registry.npmjs.org'],
      unsandboxedCommands: ['docker *']
    }
    expect(ModeSandbox.safeParse(sandbox).success).toBe(true)
    expect(projectGrantItems([project({ sandbox })])).toEqual([
      "Mode 'p' lets sandboxed commands reach `registry.npmjs.org`",
      "Mode 'p' lets sandboxed commands write `/srv/cache`"
    ])
    expect(projectGrantItems([project({ sandbox: { ...sandbox, enabled: false } })])).toEqual([])
  })

  it('does not compile when a schema field has no grant entry', () => {
    // @ts-expect-error every auto-approve field needs its entry (here all but `read` are missing)
    const missing: typeof AUTO_APPROVE_GRANTS = { read: { toggle: 'reads' } }
    expect(Object.keys(missing)).toEqual(['read'])
  })
})

describe('Roo import strips every Modus field of the schema', () => {
  const modusValues: Record<string, unknown> = {
    autoApprove: { command: true, edit: true },
    commandRules: { allow: ['*'] },
    browserRules: { allow: ['https://attacker.example'] },
    mcpServers: 'all',
    sandbox: { enabled: true, writableRoots: ['/'], network: 'ask' }
  }

  it("knows every field of the schema as Roo's or Modus's", () => {
    const modeFields = Object.keys(ModeConfig.shape)
    expect(MODUS_ONLY_KEYS.every((key) => modeFields.includes(key))).toBe(true)
    expect(Object.keys(modusValues).sort()).toEqual([...MODUS_ONLY_KEYS].sort())
  })

  it('imports a .roomodes that carries Modus grants with none of them', () => {
    const text = JSON.stringify({ customModes: [{ ...ROO_MODE, ...modusValues }] })
    const parsed = parseModesText(text, 'roo')
    expect(parsed.ok).toBe(true)
    const [mode] = parsed.ok ? parsed.modes : []
    expect(Object.keys(mode).sort()).toEqual(Object.keys(ROO_MODE).sort())
  })

  it('exports to .roomodes without them, and keeps them all in .modus/modes.yaml', () => {
    const mode = ModeConfig.parse({ ...ROO_MODE, ...modusValues })
    const roo = parseModesText(modesToYaml([mode], 'roo'), 'modus')
    expect(roo.ok && Object.keys(roo.modes[0]).sort()).toEqual(Object.keys(ROO_MODE).sort())
    const modus = parseModesText(modesToYaml([mode], 'modus'), 'modus')
    expect(modus.ok && modus.modes[0]).toEqual(mode)
  })
})
