import { describe, expect, it } from 'vitest'
import { draftFromEntry, emptyDraft, entryFromDraft } from '../../../src/renderer/src/features/mcp/mcp-form-model'

describe('MCP server form', () => {
  it('builds a stdio entry from lines, keeping what the form does not show', () => {
    const draft = {
      ...emptyDraft('global'),
      name: 'gh',
      command: 'npx',
      args: '-y\nserver-github\n',
      env: 'TOKEN=${env:GH_TOKEN}',
      timeout: '30'
    }
    const built = entryFromDraft(draft, { command: 'old', alwaysAllow: ['list'], disabledTools: ['drop'] })
    expect(built).toEqual({
      ok: true,
      entry: {
        command: 'npx',
        args: ['-y', 'server-github'],
        env: { TOKEN: '${env:GH_TOKEN}' },
        alwaysAllow: ['list'],
        disabledTools: ['drop'],
        timeout: 30
      }
    })
  })

  it('builds a URL entry and round-trips through the draft', () => {
    const entry = {
      type: 'sse' as const,
      url: 'https://example.com/sse',
      headers: { Authorization: 'Bearer ${env:K}' }
    }
    const draft = draftFromEntry('docs', 'project', entry)
    expect(draft).toMatchObject({ kind: 'url', urlType: 'sse', headers: 'Authorization: Bearer ${env:K}' })
    expect(entryFromDraft(draft, entry)).toEqual({ ok: true, entry })
  })

  it('says what to fix instead of writing a bad entry', () => {
    expect(entryFromDraft({ ...emptyDraft('global'), name: 'x' }, undefined)).toEqual({
      ok: false,
      error: 'Command: the program to start.'
    })
    expect(
      entryFromDraft({ ...emptyDraft('global'), name: 'x', kind: 'url', url: 'ftp://x' }, undefined)
    ).toMatchObject({ ok: false })
    expect(
      entryFromDraft({ ...emptyDraft('global'), name: 'x', command: 'y', env: 'NOVALUE' }, undefined)
    ).toMatchObject({ ok: false, error: expect.stringContaining('NOVALUE') })
    expect(entryFromDraft({ ...emptyDraft('global'), name: 'x', command: 'y', timeout: '0' }, undefined)).toMatchObject(
      { ok: false }
    )
  })
})
