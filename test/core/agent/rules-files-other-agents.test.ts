import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadRulesReport } from '../../../src/main/core/loop/rules-files'
import { runCli } from '../../support/run-cli'

const SECRET = 'BEGIN OPENSSH PRIVATE KEY from-the-home-dir'

/** A project carrying the rule files of Claude Code, Cline, Cursor and Copilot, and a planted link among them. */
function repoWithOtherAgentsRules(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'modus-other-rules-')))
  const workspace = join(root, 'repo')
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(workspace, path)), { recursive: true })
    writeFileSync(join(workspace, path), text)
  }
  writeFileSync(join(root, 'id_rsa'), SECRET)
  write('AGENTS.md', 'Agents rule.')
  write('CLAUDE.md', 'Claude rule: run npm test before finishing.')
  write('.clinerules/01-style.md', 'Cline rule: two-space indent.')
  write(
    '.cursor/rules/always.mdc',
    '---\ndescription: House style\nglobs:\nalwaysApply: true\n---\nCursor always rule.'
  )
  write(
    '.cursor/rules/react.mdc',
    '---\ndescription:\nglobs: src/**/*.tsx, *.jsx\nalwaysApply: false\n---\nCursor rule for components.'
  )
  write(
    '.cursor/rules/db.mdc',
    '---\ndescription: "When writing SQL migrations"\nalwaysApply: false\n---\nCursor requested rule.'
  )
  write('.cursor/rules/manual.mdc', '---\nalwaysApply: false\n---\nCursor manual rule.')
  write('.cursor/rules/notes.txt', 'not a rule')
  write('.github/copilot-instructions.md', 'Copilot rule.')
  // A rule file that is a link out of the workspace is never read, whichever agent's name it has.
  mkdirSync(join(workspace, '.claude'))
  symlinkSync(join(root, 'id_rsa'), join(workspace, '.claude', 'CLAUDE.md'))
  return workspace
}

describe("other agents' rule files", () => {
  it('are read beside AGENTS.md under the same guards; Cursor rules by their front-matter', async () => {
    const workspace = repoWithOtherAgentsRules()
    const report = await loadRulesReport(workspace, 'code')
    expect(report.files.map((f) => f.path)).toEqual([
      'AGENTS.md',
      'CLAUDE.md',
      '.clinerules/01-style.md',
      '.cursor/rules/always.mdc',
      '.cursor/rules/db.mdc',
      '.cursor/rules/react.mdc',
      '.github/copilot-instructions.md'
    ])
    const byPath = new Map(report.files.map((f) => [f.path, f]))
    expect(byPath.get('.cursor/rules/always.mdc')).toEqual({
      path: '.cursor/rules/always.mdc',
      content: 'Cursor always rule.'
    })
    expect(byPath.get('.cursor/rules/react.mdc')?.appliesTo).toBe(
      'when working on files matching `src/**/*.tsx`, `*.jsx`'
    )
    expect(byPath.get('.cursor/rules/db.mdc')?.appliesTo).toBe('when it fits: When writing SQL migrations')
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { path: '.claude/CLAUDE.md', reason: 'links outside the workspace' },
        { path: '.cursor/rules/manual.mdc', reason: expect.stringContaining('manual Cursor rule') }
      ])
    )
    expect(JSON.stringify(report)).not.toContain('from-the-home-dir')
  })

  it('.clinerules may be a single file', async () => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-clinerules-')))
    writeFileSync(join(workspace, '.clinerules'), 'One cline file.')
    expect((await loadRulesReport(workspace, 'code')).files).toEqual([
      { path: '.clinerules', content: 'One cline file.' }
    ])
  })

  it(
    'modus prompt lists each file read with its token count, and the system prompt states a glob rule with its globs',
    { timeout: 120_000 },
    async () => {
      const workspace = repoWithOtherAgentsRules()
      const dataDir = mkdtempSync(join(tmpdir(), 'modus-prompt-data-'))
      const text = await runCli(['prompt', '--workspace', workspace], { env: { MODUS_DATA_DIR: dataDir } })
      expect(text.code).toBe(0)
      expect(text.stdout).toMatch(
        /# Rule files read: AGENTS\.md \(\d+ tokens\), CLAUDE\.md \(\d+ tokens\), .*\.cursor\/rules\/react\.mdc \(\d+ tokens, when working on files matching/
      )
      expect(text.stdout).toContain('# Rule file not read: .claude/CLAUDE.md (links outside the workspace)')
      expect(text.stdout).toContain(
        '## .cursor/rules/react.mdc\n(Apply this rule only when working on files matching `src/**/*.tsx`, `*.jsx`.)\nCursor rule for components.'
      )
      const json = await runCli(['prompt', '--workspace', workspace, '--json'], { env: { MODUS_DATA_DIR: dataDir } })
      const report = JSON.parse(json.stdout)
      expect(report.rules.files.find((f: { path: string }) => f.path === 'CLAUDE.md').tokens).toBeGreaterThan(5)
      expect(report.system).toContain('Copilot rule.')
    }
  )
})
