import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { BUILT_IN_MODES } from '../../../src/shared/modes/builtin'
import type { ModeConfig } from '../../../src/shared/modes/schema'
import {
  filterToolsForMode,
  isToolAllowedForMode,
  isToolOffered,
  isValidToolName,
  validateToolUse,
  FileRestrictionError,
  type ToolAccessContext
} from '../../../src/shared/policy/tool-access'
import { builtInToolNames } from '../../../src/shared/tools/catalog'
import { defineCustomTool } from '../../../src/shared/tools/custom'

const modeOf = (slug: string): ModeConfig => BUILT_IN_MODES.find((mode) => mode.slug === slug)!
const ctxFor = (slug: string, extra: Partial<ToolAccessContext> = {}): ToolAccessContext => ({
  mode: modeOf(slug),
  ...extra
})
const names = (ctx: ToolAccessContext) => filterToolsForMode(ctx).map((tool) => tool.name)

describe('validateToolUse', () => {
  it('refuses an unknown tool and lists the available ones', () => {
    const result = validateToolUse('delete_everything', {}, ctxFor('ask'))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toBe('unknown_tool')
    expect(result.message).toMatch(
      /^Unknown tool "delete_everything"\. This tool does not exist\. Please use one of the available tools: /
    )
    expect(result.message).toContain('read_file')
    expect(result.message).not.toContain('write_to_file')
  })

  it('names the tool and the mode when the mode does not allow it', () => {
    const result = validateToolUse('execute_command', { command: 'ls' }, ctxFor('architect'))
    expect(result).toMatchObject({ ok: false, reason: 'not_allowed' })
    if (result.ok) return
    expect(result.message).toContain('Tool "execute_command" is not allowed in architect mode.')
    expect(result.message).toContain('Tools available in this mode: read_file')
  })

  it('says a tool left out of the model’s tool set is not the mode’s doing, and names the one to use', () => {
    const gpt = { includedTools: ['apply_patch'], excludedTools: ['apply_diff', 'write_to_file'] }
    const result = validateToolUse('apply_diff', { path: 'a.ts', diff: 'x' }, ctxFor('code', gpt))
    expect(result).toMatchObject({ ok: false, reason: 'not_allowed' })
    if (result.ok) return
    expect(result.message).toContain(
      'Tool "apply_diff" is not part of this model\'s tool set (this is not a restriction of the code mode).'
    )
    expect(result.message).toContain('Use apply_patch instead.')
    expect(result.message).not.toContain('is not allowed in code mode')
    const architect = validateToolUse('execute_command', { command: 'ls' }, ctxFor('architect', gpt))
    expect(!architect.ok && architect.message).toContain('is not allowed in architect mode')
  })

  it('refuses a disabled tool even when it is always available', () => {
    const result = validateToolUse(
      'attempt_completion',
      { result: 'done' },
      ctxFor('code', { disabledTools: ['attempt_completion'] })
    )
    expect(result).toMatchObject({ ok: false, reason: 'not_allowed' })
    if (!result.ok) expect(result.message).toContain('disabled in settings')
  })

  it('allows always-available tools in a mode without groups', () => {
    expect(validateToolUse('update_todo_list', { todos: '[ ] a' }, ctxFor('orchestrator')).ok).toBe(true)
    expect(validateToolUse('new_task', { mode: 'code', message: 'do it' }, ctxFor('orchestrator')).ok).toBe(true)
    expect(validateToolUse('read_file', { path: 'a' }, ctxFor('orchestrator')).ok).toBe(false)
  })

  it('says which parameter is missing or invalid', () => {
    const missing = validateToolUse('write_to_file', { path: 'a.ts' }, ctxFor('code'))
    expect(missing).toMatchObject({ ok: false, reason: 'invalid_arguments' })
    if (!missing.ok) expect(missing.message).toContain("Missing value for required parameter 'content'.")
    const bad = validateToolUse('read_file', { path: 'a.ts', offset: 0 }, ctxFor('code'))
    if (!bad.ok) expect(bad.message).toMatch(/Invalid value for 'offset'/)
    const extra = validateToolUse('read_file', { path: 'a.ts', bogus: 1 }, ctxFor('code'))
    if (!extra.ok) expect(extra.message).toContain('Unknown parameter(s): bogus')
  })

  it('tells a wrong type apart from a missing value, and says what was sent', () => {
    const message = (name: string, args: unknown) => {
      const result = validateToolUse(name, args, ctxFor('code'))
      expect(result).toMatchObject({ ok: false, reason: 'invalid_arguments' })
      return result.ok ? '' : result.message
    }
    expect(message('read_file', { path: 5 })).toContain("Invalid value for 'path': expected string, got a number.")
    expect(message('read_file', { path: 5 })).not.toContain('Missing value')
    expect(message('read_file', { path: 'a', offset: '3' })).toContain(
      "Invalid value for 'offset': expected number, got a string."
    )
    expect(message('read_file', { path: 'a', indentation: { anchor_line: [1] } })).toContain(
      "Invalid value for 'indentation.anchor_line': expected number, got an array."
    )
    expect(message('ask_followup_question', { question: 'q', follow_up: 'yes' })).toContain(
      "Invalid value for 'follow_up': expected array, got a string."
    )
    expect(message('codebase_search', { query: 'x', path: 7 })).toContain(
      "Invalid value for 'path': expected string, got a number."
    )
    expect(message('list_code_definition_names', {})).toContain("Missing value for required parameter 'path'.")
  })

  it('says the arguments must be an object when the model sends an array, a string or a number', () => {
    for (const [args, kind] of [
      [['a.ts'], 'an array'],
      ['a.ts', 'a string'],
      [42, 'a number'],
      [true, 'a boolean']
    ] as const) {
      const result = validateToolUse('read_file', args, ctxFor('code'))
      expect(result).toMatchObject({ ok: false, reason: 'invalid_arguments' })
      if (!result.ok)
        expect(result.message).toBe(
          `Invalid arguments for tool 'read_file': the arguments must be a JSON object of named parameters, not ${kind}. Please retry with complete arguments.`
        )
    }
  })

  it("refuses a control character in codebase_search's path and takes an empty path as the whole workspace", () => {
    const nul = validateToolUse('codebase_search', { query: 'x', path: 'src\u0000/../..' }, ctxFor('code'))
    expect(nul).toMatchObject({ ok: false, reason: 'invalid_arguments' })
    if (!nul.ok)
      expect(nul.message).toContain("Invalid value for 'path': must not contain a NUL or another control character.")
    expect(validateToolUse('codebase_search', { query: 'x', path: '' }, ctxFor('code')).ok).toBe(true)
  })

  it('cuts a runaway unknown tool name instead of echoing it whole', () => {
    const result = validateToolUse(`x${'y'.repeat(100_000)}`, {}, ctxFor('code'))
    expect(result).toMatchObject({ ok: false, reason: 'unknown_tool' })
    if (!result.ok) expect(result.message.length).toBeLessThan(2000)
  })

  it('treats null optional arguments as absent (strict-mode models send null)', () => {
    const result = validateToolUse('search_files', { path: '.', regex: 'x', file_pattern: null }, ctxFor('code'))
    expect(result.ok).toBe(true)
    if (result.ok) expect(result.params).toEqual({ path: '.', regex: 'x' })
  })

  it('resolves aliases only for models that asked for the alias', () => {
    expect(validateToolUse('write_file', { path: 'a', content: '' }, ctxFor('code')).ok).toBe(false)
    const result = validateToolUse(
      'search_and_replace',
      { file_path: 'a', old_string: 'x', new_string: 'y' },
      ctxFor('code', { includedTools: ['search_and_replace'] })
    )
    expect(result).toMatchObject({ ok: true, name: 'edit', originalName: 'search_and_replace' })
  })
})

describe('file restriction on every path an edit names', () => {
  const architect = ctxFor('architect', { includedTools: ['apply_patch', 'edit'] })

  it('names the pattern, its description and the path', () => {
    const result = validateToolUse('write_to_file', { path: 'src/a.ts', content: 'x' }, architect)
    expect(result).toEqual({
      ok: false,
      reason: 'file_restricted',
      message:
        "Tool 'write_to_file' in mode 'Architect' can only edit files matching pattern: \\.md$ (Markdown files only). Got: src/a.ts"
    })
  })

  it('checks file_path of edit', () => {
    expect(validateToolUse('edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }, architect).ok).toBe(false)
    expect(validateToolUse('edit', { file_path: 'a.md', old_string: 'a', new_string: 'b' }, architect).ok).toBe(true)
  })

  it('checks every file of a multi-file patch, and Move to targets (which Roo misses)', () => {
    const allowed = '*** Begin Patch\n*** Update File: a.md\n@@\n-a\n+b\n*** Add File: b.md\n+x\n*** End Patch'
    expect(validateToolUse('apply_patch', { patch: allowed }, architect).ok).toBe(true)
    const secondFile =
      '*** Begin Patch\n*** Update File: a.md\n@@\n-a\n+b\n*** Delete File: src/index.ts\n*** End Patch'
    expect(validateToolUse('apply_patch', { patch: secondFile }, architect)).toMatchObject({
      ok: false,
      reason: 'file_restricted'
    })
    const moved = '*** Begin Patch\n*** Update File: notes.md\n*** Move to: src/backdoor.ts\n@@\n-a\n+b\n*** End Patch'
    const result = validateToolUse('apply_patch', { patch: moved }, architect)
    expect(result).toMatchObject({ ok: false, reason: 'file_restricted' })
    if (!result.ok) expect(result.message).toContain('Got: src/backdoor.ts')
    expect(() => isToolAllowedForMode('apply_patch', architect, { patch: moved })).toThrow(FileRestrictionError)
  })

  it('normalises paths before matching, so ../ cannot dress a path up', () => {
    const docs: ModeConfig = {
      slug: 'docs',
      name: 'Docs',
      roleDefinition: 'r',
      groups: [['edit', { fileRegex: '^docs/' }]]
    }
    expect(validateToolUse('write_to_file', { path: 'docs/../src/a.ts', content: '' }, { mode: docs }).ok).toBe(false)
    expect(validateToolUse('write_to_file', { path: './docs/a.md', content: '' }, { mode: docs }).ok).toBe(true)
  })

  it('treats an invalid fileRegex as matching nothing', () => {
    const broken = { slug: 'b', name: 'B', roleDefinition: 'r', groups: [['edit', { fileRegex: '(' }]] } as ModeConfig
    expect(validateToolUse('write_to_file', { path: 'a.md', content: '' }, { mode: broken }).ok).toBe(false)
  })
})

describe('per-model tools, MCP, custom tools', () => {
  it('gives GPT-style models apply_patch in place of apply_diff and write_to_file', () => {
    const ctx = ctxFor('code', { includedTools: ['apply_patch'], excludedTools: ['apply_diff', 'write_to_file'] })
    expect(names(ctx)).toContain('apply_patch')
    expect(names(ctx)).not.toContain('apply_diff')
    expect(validateToolUse('apply_diff', { path: 'a', diff: 'x' }, ctx).ok).toBe(false)
    expect(names(ctxFor('code'))).toEqual(expect.arrayContaining(['apply_diff', 'write_to_file']))
    expect(names(ctxFor('code'))).not.toContain('apply_patch')
  })

  it('exposes an opted-in alias under the alias name', () => {
    const offered = names(ctxFor('code', { includedTools: ['search_and_replace'] }))
    expect(offered).toContain('search_and_replace')
    expect(offered).not.toContain('edit')
  })

  it('offers connected MCP tools only in modes with the mcp group', () => {
    const mcpTools = [{ server: 'gh', name: 'search' }]
    expect(names(ctxFor('code', { mcpTools }))).toContain('mcp--gh--search')
    expect(names(ctxFor('orchestrator', { mcpTools }))).not.toContain('mcp--gh--search')
    expect(validateToolUse('mcp--gh--search', { q: 'x' }, ctxFor('code', { mcpTools })).ok).toBe(true)
    expect(validateToolUse('mcp--gh--other', {}, ctxFor('code', { mcpTools }))).toMatchObject({
      reason: 'unknown_tool'
    })
    expect(names(ctxFor('code'))).not.toContain('access_mcp_resource')
    expect(names(ctxFor('code', { mcpServersWithResources: true }))).toContain('access_mcp_resource')
  })

  it('offers custom tools in every mode only behind the experiment flag', () => {
    const customTools = [
      defineCustomTool({ name: 'deploy', description: 'Deploy', params: z.object({ env: z.string() }) })
    ]
    expect(isValidToolName('deploy', { customTools })).toBe(false)
    expect(names(ctxFor('ask', { customTools }))).not.toContain('deploy')
    const on = ctxFor('ask', { customTools, experiments: { customTools: true } })
    expect(names(on)).toContain('deploy')
    expect(validateToolUse('deploy', { env: 'prod' }, on).ok).toBe(true)
    expect(validateToolUse('deploy', {}, on)).toMatchObject({ reason: 'invalid_arguments' })
  })
})

/** A tiny seeded generator, so the property test is reproducible. */
function prng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Arguments that satisfy each tool (and its fileRegex) — used to show offered tools validate. */
const sampleArgs: Record<string, Record<string, unknown>> = {
  read_file: { path: 'a.md' },
  list_files: { path: '.' },
  search_files: { path: '.', regex: 'x' },
  list_code_definition_names: { path: '.' },
  codebase_search: { query: 'where is x' },
  write_to_file: { path: 'a.md', content: 'x' },
  apply_diff: { path: 'a.md', diff: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE' },
  edit: { file_path: 'a.md', old_string: 'a', new_string: 'b' },
  search_and_replace: { file_path: 'a.md', old_string: 'a', new_string: 'b' },
  apply_patch: { patch: '*** Begin Patch\n*** Update File: a.md\n@@\n-a\n+b\n*** End Patch' },
  execute_command: { command: 'ls' },
  read_command_output: { artifact_id: 'cmd-1.txt' },
  ask_followup_question: { question: 'q', follow_up: [{ text: 'a' }] },
  attempt_completion: { result: 'done' },
  switch_mode: { mode_slug: 'code', reason: 'r' },
  new_task: { mode: 'code', message: 'm' },
  update_todo_list: { todos: '[ ] a' },
  search_mcp_tools: { query: 'x' },
  use_mcp_tool: { server_name: 's', tool_name: 't' },
  access_mcp_resource: { server_name: 's', uri: 'u' },
  'mcp--gh--search': { q: 'x' }
}

describe('one predicate for the filter and the check (property)', () => {
  const candidates = [
    ...builtInToolNames,
    'search_and_replace',
    'write_file',
    'mcp--gh--search',
    'mcp--gh--nope',
    'nonsense'
  ]
  const groupsPool = ['read', 'edit', 'command', 'mcp', 'modes'] as const
  const random = prng(42)
  const pick = <T>(items: readonly T[]) => items.filter(() => random() < 0.5)

  it('a tool not offered never validates; every offered tool validates for some arguments', () => {
    for (let run = 0; run < 400; run++) {
      const groups = pick(groupsPool).map((group) =>
        group === 'edit' && random() < 0.5 ? (['edit', { fileRegex: '\\.md$' }] as const) : group
      )
      const ctx: ToolAccessContext = {
        mode: random() < 0.05 ? undefined : ({ slug: 'm', name: 'M', roleDefinition: 'r', groups } as ModeConfig),
        disabledTools: pick(candidates).slice(0, 2),
        includedTools: pick(['apply_patch', 'edit', 'search_and_replace']),
        excludedTools: pick(['apply_diff', 'write_to_file']),
        mcpTools: random() < 0.5 ? [{ server: 'gh', name: 'search' }] : undefined,
        mcpServersWithResources: random() < 0.5,
        mcpSchemasOnDemand: random() < 0.3
      }
      const offered = new Set(names(ctx))
      for (const name of candidates) {
        const args = sampleArgs[name] ?? {}
        const valid = validateToolUse(name, args, ctx).ok
        expect(isToolOffered(name, ctx)).toBe(offered.has(name))
        if (!offered.has(name)) expect(valid, `${name} validated but was not offered`).toBe(false)
        else expect(valid, `${name} was offered but did not validate`).toBe(true)
      }
    }
  })
})
