import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createTrustService,
  fixedTrust,
  type GrantKind,
  type OpenFolder
} from '../../../src/main/core/trust/trust-service'
import { createTrustStore } from '../../../src/main/core/workspace-session/trust-store'

/** The trust service over a real trust file: the one answer every caller (policy, MCP hub, hooks) gets. */
const GRANTS = {
  modes: ["Mode 'yolo' auto-approves commands", "Mode 'yolo' sandbox may write /tmp/cache"],
  'mcp-servers': ["MCP server 'repo' runs node server.js"],
  hooks: ["Hook 'PreToolUse' runs ./check.sh"],
  'rule-files': []
} satisfies Record<GrantKind, string[]>
const KINDS = Object.keys(GRANTS) as GrantKind[]
const NEEDS_TRUST: GrantKind[] = ['modes', 'mcp-servers', 'hooks']

async function setup(answer: boolean | 'unanswered', open: 'this' | 'other' | 'none' = 'this') {
  const dataDir = mkdtempSync(join(tmpdir(), 'modus-trust-service-'))
  const root = join(dataDir, 'cloned-repo')
  const store = createTrustStore(dataDir)
  const all = Object.values(GRANTS).flat()
  if (answer !== 'unanswered') await store.set(root, answer, all)
  let folder: OpenFolder | null =
    open === 'none' ? null : { root: open === 'this' ? root : join(dataDir, 'elsewhere'), trusted: answer === true }
  const service = createTrustService({ store, openFolder: () => folder })
  return { root, store, service, setOpen: (next: OpenFolder | null) => (folder = next) }
}

describe('trust service: is this project grant in force?', () => {
  it('in a trusted open folder, every kind is in force with the grants the user saw', async () => {
    const { root, service } = await setup(true)
    for (const kind of KINDS) expect([kind, service.inForce(kind, root, GRANTS[kind])]).toEqual([kind, true])
  })

  it('in a folder the user did not trust, or never answered for, only rule files (prompt text) are in force', async () => {
    for (const answer of [false, 'unanswered'] as const) {
      const { root, service } = await setup(answer)
      for (const kind of NEEDS_TRUST)
        expect([answer, kind, service.inForce(kind, root, GRANTS[kind])]).toEqual([answer, kind, false])
      expect(service.inForce('rule-files', root, [])).toBe(true)
    }
  })

  it('a grant of any kind the user has not seen suspends that kind', async () => {
    const { root, service } = await setup(true)
    for (const kind of NEEDS_TRUST) {
      expect([kind, service.inForce(kind, root, [...GRANTS[kind], `a new ${kind} grant`])]).toEqual([kind, false])
    }
  })

  it("the open folder's answer covers all it grants: unseen servers there suspend its modes and hooks too", async () => {
    const { root, service, setOpen } = await setup(true)
    setOpen({ root, trusted: false })
    for (const kind of NEEDS_TRUST) expect([kind, service.inForce(kind, root, GRANTS[kind])]).toEqual([kind, false])
    expect(service.inForce('rule-files', root, [])).toBe(true)
  })

  it('a trusted folder that is not the open one keeps its modes and hooks; its servers run only while it is open', async () => {
    for (const open of ['other', 'none'] as const) {
      const { root, service } = await setup(true, open)
      expect(service.inForce('modes', root, GRANTS.modes)).toBe(true)
      expect(service.inForce('hooks', root, GRANTS.hooks)).toBe(true)
      expect(service.inForce('mcp-servers', root, GRANTS['mcp-servers'])).toBe(false)
    }
  })

  it("the CLI's --trust answers every kind; without it only rule files are in force", () => {
    for (const kind of KINDS) expect([kind, fixedTrust(true).inForce(kind, '/any', ['x'])]).toEqual([kind, true])
    for (const kind of KINDS)
      expect([kind, fixedTrust(false).inForce(kind, '/any', ['x'])]).toEqual([kind, kind === 'rule-files'])
  })
})
