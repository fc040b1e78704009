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
    expect(open('https://docs.example.com/guide', ctx(mode(rules)))).toMatchObject({
      decision: 'allow',
      rule: 'browser-allow:https://docs.example.com'
    })
    expect(open('https://example.org/app/page', ctx(mode(rules))).decision).toBe('allow')
    expect(open('https://example.org/other', ctx(mode(rules))).decision).toBe('ask')
    expect(open('https://docs.example.com.evil.io/', ctx(mode(rules))).decision).toBe('ask')
    expect(open('https://docs.example.com/guide', ctx(mode(rules, 'project'), false)).decision).toBe('ask')
  })

  it('origins are exact: the toggle covers a page reaching its own origin, not another loopback port (#25)', () => {
    const on = ctx(mode({ autoApprove: { browser: true } }))
    const reach = (url: string, openedFrom: string, c = on) =>
      decide({ name: 'browser_action', params: { action: 'launch', url, openedFrom } }, c)
    expect(reach('http://127.0.0.1:8080/api', 'http://127.0.0.1:8080/')).toMatchObject({
      decision: 'allow',
      rule: 'auto-approve.browser'
    })
    const other = reach('http://127.0.0.1:9090/admin', 'http://127.0.0.1:8080/')
    expect(other).toMatchObject({ decision: 'ask', rule: 'foreign-origin' })
    expect(other.reason).toContain('http://127.0.0.1:9090')
    expect(reach('http://localhost:8080/', 'http://127.0.0.1:8080/').decision).toBe('ask')
    expect(reach('https://127.0.0.1:8080/', 'http://127.0.0.1:8080/').decision).toBe('ask')
    expect(reach(`file://${ROOT}/b.html`, `file://${ROOT}/a.html`).decision).toBe('ask')
    expect(reach(`file://${ROOT}/a.html`, `file://${ROOT}/a.html`).decision).toBe('allow')
    // A URL rule names the other port: it is reached unasked.
    const ruled = ctx(mode({ autoApprove: { browser: true }, browserRules: { allow: ['http://127.0.0.1:9090'] } }))
    expect(reach('http://127.0.0.1:9090/admin', 'http://127.0.0.1:8080/', ruled).decision).toBe('allow')
    // The model's own launch of a local page stays auto-approved.
    expect(open('http://127.0.0.1:9090/admin', on).decision).toBe('allow')
  })

  it('actions on the page already open run unasked', () => {
    expect(decide({ name: 'browser_action', params: { action: 'screenshot' } }, ctx(mode())).decision).toBe('allow')
  })

  it('validates URL rules', () => {
    expect(
      validateMode({
        ...mode(),
        origin: undefined,
        overridesBuiltIn: undefined,
        browserRules: { allow: ['example.com'] }
      }).ok
    ).toBe(false)
  })
})
