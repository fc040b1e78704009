import { describe, expect, it } from 'vitest'
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from '../../../src/shared/modes/builtin'
import { resolveModes, modeOrDefault, selectModePrompt, resolveModeDetails } from '../../../src/shared/modes/resolve'
import { validateMode, validateModes, type ModeConfig } from '../../../src/shared/modes/schema'
import { modesToYaml, parseModesText } from '../../../src/shared/modes/yaml'

const mode = (over: Partial<ModeConfig> = {}): ModeConfig => ({
  slug: 'docs',
  name: 'Docs',
  roleDefinition: 'Writes docs',
  groups: ['read', ['edit', { fileRegex: '\\.md$', description: 'Markdown only' }]],
  ...over
})

const errorsOf = (input: unknown): string[] => {
  const result = validateMode(input)
  return result.ok ? [] : result.errors
}

describe('built-in modes', () => {
  it('are the five modes, valid, with code as default', () => {
    expect(BUILT_IN_MODES.map((m) => m.slug)).toEqual(['code', 'architect', 'ask', 'debug', 'orchestrator'])
    for (const builtIn of BUILT_IN_MODES) expect(validateMode(builtIn).ok).toBe(true)
    expect(DEFAULT_MODE_SLUG).toBe('code')
  })

  it('limit architect edits to Markdown and give orchestrator no groups', () => {
    const architect = BUILT_IN_MODES.find((m) => m.slug === 'architect')!
    expect(architect.groups).toContainEqual(['edit', { fileRegex: '\\.md$', description: 'Markdown files only' }])
    expect(BUILT_IN_MODES.find((m) => m.slug === 'orchestrator')!.groups).toEqual([])
  })

  it('auto-approve reads in the workspace; Code and Debug also their allow-listed test and read-only git commands', () => {
    for (const builtIn of BUILT_IN_MODES) {
      const runsCommands = builtIn.slug === 'code' || builtIn.slug === 'debug'
      expect(builtIn.autoApprove, builtIn.slug).toEqual(runsCommands ? { read: true, command: true } : { read: true })
      if (!runsCommands) continue
      expect(builtIn.commandRules?.allow).toEqual(expect.arrayContaining(['npm test *', 'git status *', 'git diff *']))
      expect(builtIn.commandRules?.allow).not.toContain('*')
    }
  })

  it('speak in Modus voice, not Roo', () => {
    for (const builtIn of BUILT_IN_MODES) expect(builtIn.roleDefinition).not.toMatch(/Roo/)
  })
})

describe('mode validation', () => {
  it('gives precise messages', () => {
    expect(errorsOf(mode({ slug: 'bad slug!' }))).toEqual(['slug: Slug must contain only letters, numbers and dashes'])
    expect(errorsOf(mode({ name: '  ' }))).toEqual(['name: Name must not be empty'])
    expect(errorsOf(mode({ groups: ['read', ['edit', { fileRegex: '([' }]] }))).toEqual([
      'groups[1][1].fileRegex: Invalid regular expression pattern'
    ])
    expect(errorsOf(mode({ groups: ['read', 'read'] }))).toEqual(['groups: Duplicate groups are not allowed: read'])
    expect(errorsOf(mode({ groups: ['edit', ['edit', { fileRegex: 'x' }]] }))).toEqual([
      'groups: Duplicate groups are not allowed: edit'
    ])
    expect(errorsOf({ ...mode(), autoApprove: { reed: true } })[0]).toMatch(/autoApprove/)
    expect(errorsOf({ ...mode(), commandRules: { allow: [''] } })).toEqual([
      'commandRules.allow[0]: A command rule must not be empty'
    ])
  })

  it('rejects duplicate slugs in a list', () => {
    const result = validateModes([mode(), mode({ name: 'Other' })])
    expect(result).toEqual({ ok: false, errors: ['customModes[1].slug: Duplicate mode slugs are not allowed: docs'] })
  })

  it('keeps the browser group of imported Roo modes, with or without options', () => {
    const result = validateMode({ ...mode(), groups: ['read', ['browser', { description: 'local pages' }]] })
    expect(result.ok && result.mode.groups).toEqual(['read', ['browser', { description: 'local pages' }]])
    expect(validateMode({ ...mode(), groups: ['browser', 'browser'] })).toEqual({
      ok: false,
      errors: ['groups: Duplicate groups are not allowed: browser']
    })
  })
})

describe('mode resolution', () => {
  it('project beats global beats built-in on the same slug', () => {
    const global = [mode({ slug: 'code', name: 'Global Code' }), mode({ slug: 'docs', name: 'Global Docs' })]
    const project = [mode({ slug: 'code', name: 'Project Code' })]
    const modes = resolveModes({ global, project })
    const code = modes.find((m) => m.slug === 'code')!
    expect(code).toMatchObject({ name: 'Project Code', origin: 'project', overridesBuiltIn: true })
    expect(modes.find((m) => m.slug === 'docs')).toMatchObject({
      name: 'Global Docs',
      origin: 'global',
      overridesBuiltIn: false
    })
    expect(modes.find((m) => m.slug === 'ask')).toMatchObject({ origin: 'builtin' })
    expect(modes.map((m) => m.slug)).toEqual(['code', 'architect', 'ask', 'debug', 'orchestrator', 'docs'])
  })

  it('falls back to the default mode for an unknown slug', () => {
    const modes = resolveModes({})
    expect(modeOrDefault('nope', modes).slug).toBe('code')
    expect(selectModePrompt('nope').roleDefinition).toBe(BUILT_IN_MODES[0].roleDefinition)
  })

  it('applies prompt overrides to built-ins but not to custom modes', () => {
    expect(selectModePrompt('ask', { override: { roleDefinition: 'R' } }).roleDefinition).toBe('R')
    const custom = [mode({ slug: 'ask', roleDefinition: 'Custom', customInstructions: undefined })]
    expect(selectModePrompt('ask', { customModes: custom, override: { roleDefinition: 'R' } })).toEqual({
      roleDefinition: 'Custom',
      baseInstructions: ''
    })
    expect(resolveModeDetails('debug', { overrides: { debug: { customInstructions: 'X' } } }).customInstructions).toBe(
      'X'
    )
  })
})

describe('modes files (YAML / JSON)', () => {
  it('round-trips Modus modes with their own keys', () => {
    const modes = [
      mode({ autoApprove: { read: true, edit: true }, commandRules: { allow: ['npm test'], deny: ['git push *'] } })
    ]
    const parsed = parseModesText(modesToYaml(modes))
    expect(parsed).toEqual({ ok: true, modes, warnings: [] })
  })

  it('exports to .roomodes without Modus-only keys', () => {
    const yaml = modesToYaml([mode({ autoApprove: { edit: true }, commandRules: { allow: ['x'] } })], 'roo')
    expect(yaml).not.toMatch(/autoApprove|commandRules/)
    expect(yaml).toMatch(/source: project/)
    expect(yaml).toMatch(/fileRegex: \\\.md\$/)
  })

  it('imports Roo modes with no auto-approve and drops their rule files with a warning', () => {
    const text = JSON.stringify({
      customModes: [
        {
          ...mode(),
          autoApprove: { edit: true },
          source: 'global',
          rulesFiles: [{ relativePath: 'a.md', content: 'x' }]
        }
      ]
    })
    const parsed = parseModesText(text, 'roo')
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.modes[0].autoApprove).toBeUndefined()
    expect(parsed.modes[0]).not.toHaveProperty('source')
    expect(parsed.warnings[0]).toMatch(/rule files were not imported/)
  })

  it('accepts a .roomodes written in JSON and cleans a BOM', () => {
    const parsed = parseModesText('\uFEFF' + JSON.stringify({ customModes: [mode()] }, null, 2), 'roo')
    expect(parsed.ok).toBe(true)
  })

  it('reports YAML syntax errors with their line', () => {
    const parsed = parseModesText('customModes:\n  - slug: a\n    name: [unclosed\n')
    expect(parsed.ok).toBe(false)
    if (parsed.ok) return
    expect(parsed.problems[0].line).toBeGreaterThanOrEqual(3)
  })

  it('reports schema errors with the line of the offending field', () => {
    const text =
      'customModes:\n  - slug: good\n    name: Good\n    roleDefinition: R\n    groups: [read]\n  - slug: "bad slug"\n    name: Bad\n    roleDefinition: R\n    groups: []\n'
    const parsed = parseModesText(text)
    expect(parsed).toEqual({
      ok: false,
      problems: [{ message: 'customModes[1].slug: Slug must contain only letters, numbers and dashes', line: 6 }]
    })
  })

  it('treats an empty file as no modes', () => {
    expect(parseModesText('')).toEqual({ ok: true, modes: [], warnings: [] })
    expect(parseModesText('# nothing yet\n')).toEqual({ ok: true, modes: [], warnings: [] })
  })
})
