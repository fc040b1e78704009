import { describe, expect, it } from 'vitest'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'
import { createCounter } from './counts'
import {
  FileRestrictionError,
  checkToolAccess,
  filterToolsForMode,
  isToolAllowedForMode,
  type ToolAccessContext
} from '../../src/shared/policy/tool-access'
import type { ModeConfig } from '../../src/shared/modes/schema'

interface PermissionVector {
  id: string
  kind: 'permission'
  api: 'check' | 'validate'
  tool: string
  modeSlug: string
  mode: ModeConfig | null
  toolRequirements: Record<string, boolean> | null
  params: Record<string, unknown> | null
  includedTools: string[] | null
  expect: 'allowed' | 'not_allowed' | 'unknown_tool' | 'file_restricted'
  expectMessageIncludes?: string[]
}
interface FilterVector {
  id: string
  kind: 'filter'
  mode: ModeConfig
  settings: { disabledTools?: string[]; modelInfo?: { includedTools?: string[] } }
  expectIncludes: string[]
  expectExcludes: string[]
}
interface MessageVector {
  id: string
  kind: 'restriction_message'
  input: { modeName: string; pattern: string; description: string | null; filePath: string; tool: string | null }
  expectMessage: string
}
type Vector = PermissionVector | FilterVector | MessageVector

/** Roo tools Modus does not have. */
const MISSING_TOOLS: Record<string, string> = {
  generate_image: 'Modus has no generate_image tool',
  run_slash_command: 'Modus has no run_slash_command tool',
  skill: 'Modus has no skill tool'
}

/** Roo's other exact-replace tools are Modus's `edit`; Roo's `mcp_server_tool` is `mcp--server--tool`. */
function modusToolName(roo: string): string {
  if (roo === 'search_replace' || roo === 'edit_file') return 'edit'
  if (roo.startsWith('mcp_')) {
    const rest = roo.slice(4)
    const at = rest.indexOf('_')
    return `mcp--${rest.slice(0, at)}--${rest.slice(at + 1)}`
  }
  return roo
}

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/tool-permission.json') : []

function outcome(vector: PermissionVector, ctx: ToolAccessContext): { result: string; message?: string } {
  const tool = modusToolName(vector.tool)
  if (vector.api === 'validate') {
    const refused = checkToolAccess(tool, ctx, vector.modeSlug)
    return refused ? { result: refused.reason, message: refused.message } : { result: 'allowed' }
  }
  try {
    return { result: isToolAllowedForMode(tool, ctx, vector.params ?? undefined) ? 'allowed' : 'not_allowed' }
  } catch (error) {
    if (error instanceof FileRestrictionError) return { result: 'file_restricted', message: error.message }
    throw error
  }
}

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: tool-permission.json'), () => {
  const counter = createCounter('tool-permission.json')
  for (const vector of vectors) {
    counter.vector()
    const tool = vector.kind === 'permission' ? vector.tool : ''
    if (MISSING_TOOLS[tool]) {
      counter.skip()
      it.skip(`${vector.id} — skipped: ${MISSING_TOOLS[tool]}`, () => {})
      continue
    }
    it(vector.id, () => {
      if (vector.kind === 'restriction_message') {
        const { modeName, pattern, description, filePath, tool: name } = vector.input
        const error = new FileRestrictionError(modeName, pattern, description ?? undefined, filePath, name ?? undefined)
        expect(error.message).toBe(vector.expectMessage)
        expect(error.name).toBe('FileRestrictionError')
      } else if (vector.kind === 'filter') {
        const names = filterToolsForMode({
          mode: vector.mode,
          disabledTools: vector.settings.disabledTools,
          includedTools: vector.settings.modelInfo?.includedTools
        }).map((definition) => definition.name)
        for (const name of vector.expectIncludes) expect(names).toContain(name)
        for (const name of vector.expectExcludes) expect(names).not.toContain(name)
      } else {
        const ctx: ToolAccessContext = {
          mode: vector.mode ?? undefined,
          toolRequirements: vector.toolRequirements ?? undefined,
          includedTools: vector.includedTools?.map(modusToolName)
        }
        const { result, message } = outcome(vector, ctx)
        expect(result).toBe(vector.expect)
        for (const fragment of vector.expectMessageIncludes ?? []) expect(message).toContain(fragment)
      }
      counter.pass()
    })
  }
})
