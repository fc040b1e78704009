import { describe, expect, it } from 'vitest'
import type { ModeConfig, ResolvedMode } from '../../../src/shared/modes/schema'
import { validateMode } from '../../../src/shared/modes/schema'
import { decide, type PolicyContext } from '../../../src/shared/policy/decide'
import { browserActionTool } from '../../../src/shared/tools/browser-action'

const ROOT = '/work/project'
const mode = (over: Partial<ModeConfig> = {}, origin: ResolvedMode['origin'] = 'global'): ResolvedMode => ({
  slug: 'web',
  name: 'Web',
  roleDefinition: 'r',
  groups: ['read', 'browser'],
  origin,
  overridesBuiltIn: false,
  ...over
})
const ctx = (m: ResolvedMode, trusted = true): PolicyContext => ({ mode: m, trusted, workspaceRoot: ROOT })
const open = (url: string, c: PolicyContext) =>
  decide({ name: 'browser_action', params: browserActionTool.params.parse({ action: 'launch', url }) }, c)

describe('browser policy', () => {
  it('asks before opening any page by default, naming the origin', () => {
    const verdict = open('http://localhost:5173/app', ctx(mode()))
    expect(verdict).toMatchObject({ decision: 'ask', rule: 'default-ask' })
    expect(verdict.reason).toContain('http://localhost:5173')
  })

  it('the browser toggle approves localhost, 127.0.0.1 and workspace files, but not other origins or outside files', () => {
    const on = ctx(mode({ autoApprove: { browser: true } }))
    expect(open('http://localhost:3000/', on).decision).toBe('allow')
    expect(open('http://127.0.0.1:8080/x', on)).toMatchObject({ decision: 'allow', rule: 'auto-approve.browser' })
    expect(open(`file://${ROOT}/dist/index.html`, on).decision).toBe('allow')
    expect(open('file:///etc/passwd', on).decision).toBe('ask')
    const foreign = open('https://evil.example/collect?q=1', on)
    expect(foreign).toMatchObject({ decision: 'ask', rule: 'foreign-origin' })
    expect(foreign.reason).toContain('https://evil.example')
    expect(open('http://localhost.evil.example/', on).decision).toBe('ask')
  })

  it('a per-mode URL allow rule opens its origin or prefix unasked; a project mode needs a trusted workspace for it', () => {
    const rules = { browserRules: { allow: ['https://docs.example.com', 'https://example.org/app/'] } }
    expect(open('https://docs.example.com/guide', ctx(mode(rules)))).toMatchObject({ decision: 'allow', rule: 'browser-allow:https://docs.example.com' })
    expect(open('https://example.org/app/page', ctx(mode(rules))).decision).toBe('allow')
    expect(open('https://example.org/other', ctx(mode(rules))).decision).toBe('ask')
    expect(open('https://docs.example.com.evil.io/', ctx(mode(rules))).decision).toBe('ask')
    expect(open('https://docs.example.com/guide', ctx(mode(rules, 'project'), false)).decision).toBe('ask')
  })

  it('actions on the page already open run unasked', () => {
    expect(decide({ name: 'browser_action', params: { action: 'screenshot' } }, ctx(mode())).decision).toBe('allow')
  })

  it('validates URL rules', () => {
    expect(validateMode({ ...mode(), origin: undefined, overridesBuiltIn: undefined, browserRules: { allow: ['example.com'] } }).ok).toBe(false)
  })
})
