import { describe, expect, it } from 'vitest'
import {
  ALWAYS_AVAILABLE_TOOLS,
  builtInToolNames,
  builtInTools,
  getBuiltInTool,
  resolveToolAlias
} from '../../../src/shared/tools/catalog'
import { patchFilePaths, applyPatchTool } from '../../../src/shared/tools/apply-patch'
import { isMcpToolName, mcpToolDefinition, mcpToolName, parseMcpToolName } from '../../../src/shared/tools/mcp'
import { defineCustomTool } from '../../../src/shared/tools/custom'
import { readFileTool } from '../../../src/shared/tools/read-file'
import { z } from 'zod'

describe('tool catalog', () => {
  it('holds every tool of the product table exactly once', () => {
    expect([...builtInToolNames].sort()).toEqual(
      [
        'access_mcp_resource',
        'apply_diff',
        'codebase_search',
        'apply_patch',
        'ask_followup_question',
        'attempt_completion',
        'browser_action',
        'edit',
        'execute_command',
        'list_code_definition_names',
        'list_files',
        'new_task',
        'read_command_output',
        'read_file',
        'search_files',
        'switch_mode',
        'update_todo_list',
        'search_mcp_tools',
        'use_mcp_tool',
        'write_to_file'
      ].sort()
    )
    expect(new Set(builtInToolNames).size).toBe(builtInToolNames.length)
  })

  it('resolves aliases before lookup', () => {
    expect(resolveToolAlias('write_file')).toBe('write_to_file')
    expect(resolveToolAlias('search_and_replace')).toBe('edit')
    expect(getBuiltInTool('write_file')?.name).toBe('write_to_file')
    expect(getBuiltInTool('search_and_replace')?.name).toBe('edit')
    expect(getBuiltInTool('toString')).toBeUndefined()
    expect(resolveToolAlias('constructor')).toBe('constructor')
  })

  it('marks always-available tools and state-changing tools', () => {
    for (const name of ALWAYS_AVAILABLE_TOOLS) expect(getBuiltInTool(name)).toBeDefined()
    expect(getBuiltInTool('read_file')?.effect).toBe('read')
    expect(getBuiltInTool('write_to_file')?.effect).toBe('edit')
    expect(getBuiltInTool('execute_command')?.effect).toBe('command')
  })

  it('gives every edit tool the paths it writes', () => {
    for (const tool of builtInTools.filter((t) => t.group === 'edit')) expect(tool.writePaths).toBeDefined()
  })

  it('parses read_file arguments with Roo parameter names and rejects bad ones', () => {
    expect(
      readFileTool.params.parse({ path: 'a.ts', mode: 'indentation', offset: 3, indentation: { anchor_line: 4 } })
    ).toMatchObject({
      path: 'a.ts',
      offset: 3
    })
    expect(readFileTool.params.safeParse({ path: 'a.ts', offset: 0 }).success).toBe(false)
    expect(readFileTool.params.safeParse({ path: 'a.ts', indentation: { anchor_line: 0 } }).success).toBe(false)
    expect(readFileTool.params.safeParse({ path: '' }).success).toBe(false)
    expect(readFileTool.params.safeParse({ path: 'a', extra: 1 }).success).toBe(false)
  })

  it('summarises calls in one line', () => {
    for (const tool of builtInTools) expect(typeof tool.summarize).toBe('function')
    expect(getBuiltInTool('execute_command')?.summarize({ command: 'npm test' })).toBe('Run npm test')
  })
})

describe('apply_patch paths', () => {
  it('lists every file a patch names, move targets included', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: docs/new.md',
      '+hi',
      '*** Update File: docs/a.md',
      '*** Move to: src/evil.ts',
      '@@',
      '-x',
      '+y',
      '*** Delete File: old.md',
      '*** End Patch'
    ].join('\n')
    expect(patchFilePaths(patch)).toEqual(['docs/new.md', 'docs/a.md', 'src/evil.ts', 'old.md'])
    expect(applyPatchTool.writePaths?.({ patch })).toContain('src/evil.ts')
    expect(applyPatchTool.summarize({ patch })).toBe('Patch 4 files')
  })

  it('reads CRLF patches', () => {
    expect(patchFilePaths('*** Begin Patch\r\n*** Update File: a.md\r\n*** End Patch\r\n')).toEqual(['a.md'])
  })
})

describe('MCP and custom tools', () => {
  it('names dynamic MCP tools mcp--server--tool and parses them back', () => {
    const name = mcpToolName('context7', 'resolve-library-id')
    expect(name).toBe('mcp--context7--resolve-library-id')
    expect(isMcpToolName(name)).toBe(true)
    expect(parseMcpToolName(name)).toEqual({ server: 'context7', tool: 'resolve-library-id' })
    expect(parseMcpToolName('mcp__github__get_issue')).toEqual({ server: 'github', tool: 'get_issue' })
    expect(mcpToolName('my server!', 'a--b')).toBe('mcp--my_server_--a-b')
    expect(mcpToolName('s', 'x'.repeat(100)).length).toBe(64)
    expect(parseMcpToolName('mcp--nodelimiter')).toBeUndefined()
  })

  it('sends the server schema as is', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }
    const definition = mcpToolDefinition({ server: 'gh', name: 'search', inputSchema: schema })
    expect(definition.inputJsonSchema).toBe(schema)
    expect(definition.group).toBe('mcp')
  })

  it('defines custom tools with a checked name', () => {
    const tool = defineCustomTool({ name: 'deploy', description: 'Deploy', params: z.object({ env: z.string() }) })
    expect(tool.group).toBe('always')
    expect(() => defineCustomTool({ name: 'bad name', description: '', params: z.object({}) })).toThrow(
      /Invalid custom tool name/
    )
  })
})
