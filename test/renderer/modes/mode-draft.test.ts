import { describe, expect, it } from 'vitest'
import { BUILT_IN_MODES } from '../../../src/shared/modes/builtin'
import { ModeConfig } from '../../../src/shared/modes/schema'
import {
  checkDraft,
  draftFromMode,
  emptyDraft,
  modeInputFromDraft,
  regexProblem,
  slugFromName
} from '../../../src/renderer/src/features/modes/mode-draft'
import { detectModesFormat } from '../../../src/shared/modes/yaml'
import { describeMatches } from '../../../src/renderer/src/features/modes/FileRegexField'

describe('mode draft', () => {
  it.each(BUILT_IN_MODES.map((mode) => [mode.slug, mode] as const))(
    'round-trips the built-in %s unchanged',
    (_slug, mode) => {
      const check = checkDraft(draftFromMode(mode))
      expect(check.ok).toBe(true)
      expect(check.ok && check.mode).toEqual(ModeConfig.parse(mode))
    }
  )

  it('keeps the edit group options, command rules and every auto-approve field', () => {
    const mode = ModeConfig.parse({
      slug: 'docs',
      name: 'Docs',
      roleDefinition: 'Writes docs',
      groups: ['read', ['edit', { fileRegex: '\\.mdx?$', description: 'Markdown' }], 'command'],
      commandRules: { allow: ['npm test', 'git diff *'], deny: ['git push *'] },
      autoApprove: {
        read: true,
        edit: true,
        followup: true,
        followupTimeoutMs: 30_000,
        maxRequests: 20,
        maxCostUsd: 1.5
      }
    })
    const draft = draftFromMode(mode)
    expect(draft.fileRegex).toBe('\\.mdx?$')
    expect(draft.rules.allow).toBe('npm test\ngit diff *')
    expect(draft.followupTimeoutSeconds).toBe('30')
    expect(modeInputFromDraft(draft)).toEqual(mode)
  })

  it('keeps the sandbox setting and its auto-approve toggle, and places a bad domain at the sandbox field', () => {
    const mode = ModeConfig.parse({
      slug: 'build',
      name: 'Build',
      roleDefinition: 'Builds',
      groups: ['read', 'command'],
      autoApprove: { sandboxedCommands: true },
      sandbox: {
        enabled: true,
        writableRoots: ['.', '/var/tmp/out'],
        network: 'ask',
        allowedDomains: ['registry.npmjs.org']
      }
    })
    const draft = draftFromMode(mode)
    expect(draft.sandbox).toEqual({
      enabled: true,
      writableRoots: '.\n/var/tmp/out',
      network: 'ask',
      allowedDomains: 'registry.npmjs.org',
      unsandboxedCommands: '',
      whereAvailable: false,
      readableCredentials: []
    })
    expect(draft.toggles.sandboxedCommands).toBe(true)
    expect(modeInputFromDraft(draft)).toEqual(mode)
    expect(
      modeInputFromDraft({
        ...draft,
        sandbox: {
          enabled: false,
          writableRoots: '',
          network: 'none',
          allowedDomains: '',
          unsandboxedCommands: '',
          whereAvailable: false,
          readableCredentials: []
        }
      }).sandbox
    ).toBeUndefined()
    const bad = checkDraft({ ...draft, sandbox: { ...draft.sandbox, allowedDomains: 'https://registry.npmjs.org/' } })
    expect(bad.ok === false && bad.errors.sandboxDomains).toContain('A domain must be a host name')
  })

  it('keeps the built-in "where available" flag and the credential stores given back', () => {
    const code = BUILT_IN_MODES.find((mode) => mode.slug === 'code')!
    const draft = draftFromMode(code)
    expect(draft.sandbox).toMatchObject({
      enabled: true,
      whereAvailable: true,
      network: 'ask',
      readableCredentials: []
    })
    const given = modeInputFromDraft({ ...draft, sandbox: { ...draft.sandbox, readableCredentials: ['npmrc'] } })
    expect(given.sandbox).toEqual({
      enabled: true,
      whereAvailable: true,
      network: 'ask',
      readableCredentials: ['npmrc']
    })
    // Turned off, the setting is saved as off: the override keeps it.
    expect(modeInputFromDraft({ ...draft, sandbox: { ...draft.sandbox, enabled: false } }).sandbox).toMatchObject({
      enabled: false
    })
  })

  it('keeps the commands that run outside the sandbox, one rule per line', () => {
    const mode = ModeConfig.parse({
      slug: 'build',
      name: 'Build',
      roleDefinition: 'Builds',
      groups: ['read', 'command'],
      sandbox: { enabled: true, network: 'none', unsandboxedCommands: ['docker *', 'podman build'] }
    })
    const draft = draftFromMode(mode)
    expect(draft.sandbox.unsandboxedCommands).toBe('docker *\npodman build')
    expect(modeInputFromDraft(draft)).toEqual(mode)
    const edited = modeInputFromDraft({
      ...draft,
      sandbox: { ...draft.sandbox, unsandboxedCommands: 'docker *\n\n  nerdctl *  ' }
    })
    expect(edited.sandbox).toMatchObject({ unsandboxedCommands: ['docker *', 'nerdctl *'] })
  })

  it('keeps the browser toggle and URL allow rules, and names a bad rule at the browser rules field', () => {
    const mode = ModeConfig.parse({
      slug: 'web',
      name: 'Web',
      roleDefinition: 'Builds web apps',
      groups: ['read', 'browser'],
      autoApprove: { browser: true },
      browserRules: { allow: ['https://docs.example.com', 'https://example.com/app/'] }
    })
    const draft = draftFromMode(mode)
    expect(draft.toggles.browser).toBe(true)
    expect(draft.browserAllow).toBe('https://docs.example.com\nhttps://example.com/app/')
    expect(modeInputFromDraft(draft)).toEqual(mode)
    expect(modeInputFromDraft({ ...draft, browserAllow: '\n \n' }).browserRules).toBeUndefined()
    const bad = checkDraft({ ...draft, browserAllow: 'https://docs.example.com\ndocs.example.com' })
    expect(bad.ok === false && bad.errors.browserRules).toBe(
      'A URL rule must be an http(s):// or file:// origin or URL prefix: “docs.example.com”'
    )
    const unparsable = checkDraft({ ...draft, browserAllow: 'http://[::1' })
    expect(unparsable.ok === false && unparsable.errors.browserRules).toContain('“http://[::1”')
  })

  it('keeps the MCP servers a mode may use: a list, none, or all when blank', () => {
    const base = { slug: 'docs', name: 'Docs', roleDefinition: 'Docs', groups: ['read', 'mcp'] }
    const listed = ModeConfig.parse({ ...base, mcpServers: ['wiki', 'github'] })
    expect(draftFromMode(listed).mcpServers).toBe('wiki, github')
    expect(modeInputFromDraft(draftFromMode(listed))).toEqual(listed)
    expect(modeInputFromDraft({ ...draftFromMode(listed), mcpServers: 'none' }).mcpServers).toBe('none')
    expect(modeInputFromDraft({ ...draftFromMode(listed), mcpServers: ' ' }).mcpServers).toBeUndefined()
  })

  it('drops blank lines from rule lists and leaves false toggles out', () => {
    const draft = {
      ...emptyDraft(),
      slug: 'x',
      name: 'X',
      roleDefinition: 'R',
      rules: { allow: '\n npm test \n\n', ask: '', deny: '' }
    }
    draft.toggles.read = false
    expect(modeInputFromDraft(draft)).toEqual({
      slug: 'x',
      name: 'X',
      roleDefinition: 'R',
      groups: ['read'],
      commandRules: { allow: ['npm test'] }
    })
  })

  it('places each validation error next to its field', () => {
    const draft = {
      ...emptyDraft(),
      slug: 'bad slug',
      name: ' ',
      roleDefinition: '',
      fileRegex: '([',
      maxRequests: '0',
      followupTimeoutSeconds: 'soon'
    }
    draft.groups.edit = true
    const check = checkDraft(draft)
    expect(check.ok).toBe(false)
    if (check.ok) return
    expect(check.errors.slug).toBe('Slug must contain only letters, numbers and dashes')
    expect(check.errors.name).toBe('Name must not be empty')
    expect(check.errors.roleDefinition).toBe('Role definition must not be empty')
    expect(check.errors.fileRegex).toMatch(/Invalid regular expression/)
    expect(check.errors.maxRequests).toMatch(/whole number above 0/)
    expect(check.errors.followupTimeoutSeconds).toMatch(/Seconds from 1 to 3600/)
  })

  it('refuses a slug already taken in the same place and a pattern without the edit group', () => {
    const draft = { ...emptyDraft(), slug: 'docs', name: 'Docs', roleDefinition: 'R', fileRegex: '\\.md$' }
    const check = checkDraft(draft, ['docs'])
    expect(check.ok).toBe(false)
    if (check.ok) return
    expect(check.errors.slug).toMatch(/already exists/)
    expect(check.errors.fileRegex).toMatch(/edit group/)
  })

  it('explains an invalid pattern in the engine’s words', () => {
    expect(regexProblem('\\.md$')).toBeNull()
    expect(regexProblem('(')).toMatch(/^Invalid regular expression: .+/)
  })

  it('derives slugs from names', () => {
    expect(slugFromName('Docs Writer ✍')).toBe('docs-writer')
    expect(slugFromName('Café Ops')).toBe('cafe-ops')
  })

  it('recognises Roo files by their content, not their name', () => {
    const roo =
      'customModes:\n  - slug: t\n    name: T\n    roleDefinition: R\n    groups: [read]\n    source: project\n'
    const modus =
      'customModes:\n  - slug: t\n    name: T\n    roleDefinition: R\n    groups: [read]\n    autoApprove: {read: true}\n'
    expect(detectModesFormat(roo)?.format).toBe('roo')
    expect(detectModesFormat(JSON.stringify({ customModes: [{ slug: 't', rulesFiles: [] }] }))?.format).toBe('roo')
    expect(detectModesFormat(modus)?.format).toBe('modus')
    expect(detectModesFormat('hello')).toBeNull()
  })

  it('describes the match count honestly when the list is cut', () => {
    expect(describeMatches(0, 12, false)).toBe('No file matches (12 workspace files checked).')
    expect(describeMatches(1, 12, false)).toBe('1 file of 12 in the workspace matches.')
    expect(describeMatches(500, 5000, true)).toBe('500+ files of 5000 in the workspace match.')
  })
})
