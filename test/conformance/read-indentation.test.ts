import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  effectiveIndents,
  formatLines,
  parseLines,
  readWithIndentation,
  readWithSlice,
  type ParsedLine
} from '../../src/shared/diff/read-lines'
import { readFileTool } from '../../src/shared/tools/read-file'
import { readFileArgumentError } from '../../src/main/core/tools/read-file'
import { readSharedJson, sharedPresent, sharedSuiteName } from '../support/shared-dir'

interface Check {
  field: string
  op: string
  value: unknown
}
type Vector = { id: string; kind: string; expect: Check[] } & Record<string, any>

const vectors: Vector[] = sharedPresent ? readSharedJson<Vector[]>('conformance/roo/read-indentation.json') : []
let passed = 0

/** Wording checks on Roo's long read_file description; Modus keeps its definitions short on purpose. */
const DESCRIPTION_REASON =
  "Modus's read_file description is deliberately short (fixed prompt cost, perf-anchors §8) and does not restate Roo's wording"
function skipReason(v: Vector): string | null {
  if (v.kind !== 'tool_schema') return null
  if (v.expect.some((c) => c.field === 'description')) return DESCRIPTION_REASON
  if (v.expect.some((c) => c.field === 'strict'))
    return 'strict mode is a provider-adapter decision in Modus, not a property of the catalog definition'
  return null
}

function get(obj: any, path: string): any {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .reduce((o, k) => (o == null ? undefined : k === 'length' && Array.isArray(o) ? o.length : o[k]), obj)
}

function check(subject: any, c: Check): void {
  if (c.field.includes('[*]')) {
    const [arrayPath, rest] = c.field.split('[*]')
    const arr: any[] = get(subject, arrayPath)
    arr.forEach((_, i) => {
      const field = `${arrayPath}[${i}]${rest}`
      const value = c.op === 'lte_field' ? get(subject, (c.value as string).replace('[*]', `[${i}]`)) : c.value
      check(subject, { field, op: c.op === 'lte_field' ? 'lte' : c.op, value })
    })
    return
  }
  const actual = get(subject, c.field)
  switch (c.op) {
    case 'eq':
      return void expect(actual).toEqual(c.value)
    case 'length':
      return void expect(actual).toHaveLength(c.value as number)
    case 'includes':
      return void expect(actual).toContain(c.value)
    case 'excludes':
      return void expect(actual).not.toContain(c.value)
    case 'gt':
      return void expect(actual).toBeGreaterThan(c.value as number)
    case 'lt':
      return void expect(actual).toBeLessThan(c.value as number)
    case 'lte':
      return void expect(actual).toBeLessThanOrEqual(c.value as number)
    case 'matches':
      return void expect(actual).toMatch(new RegExp(c.value as string))
    case 'hasKey':
      return void expect(Object.keys(actual ?? {})).toContain(c.value)
    default:
      throw new Error(`unknown op ${c.op}`)
  }
}

/** The definition as offered to the model: OpenAI function-tool shape, schema derived from zod. */
function readFileFunctionTool() {
  return {
    type: 'function',
    function: {
      name: readFileTool.name,
      description: readFileTool.description,
      parameters: z.toJSONSchema(readFileTool.params)
    }
  }
}

function subjectOf(v: Vector): any {
  switch (v.kind) {
    case 'parse_lines':
      return { lines: parseLines(v.content) }
    case 'effective_indents':
      return { effective: effectiveIndents(parseLines(v.content)) }
    case 'format_lines':
      return { output: formatLines(v.lines as ParsedLine[], v.maxLineLength) }
    case 'slice': {
      const r = readWithSlice(v.content, v.offset, v.limit)
      return r
    }
    case 'indentation': {
      const r = readWithIndentation(v.content, v.options)
      const rows = r.content.split('\n')
      return { ...r, contentFirstLine: rows[0], contentLastLine: rows[rows.length - 1] }
    }
    case 'tool_param_validation':
      return { toolResult: readFileArgumentError(v.toolParams) ?? '' }
    case 'tool_schema': {
      const tool = readFileFunctionTool()
      return { ...tool.function, type: tool.type }
    }
  }
  throw new Error(`unknown kind ${v.kind}`)
}

describe.skipIf(!sharedPresent)(sharedSuiteName('conformance: read-indentation.json'), () => {
  const skipped = vectors.filter((v) => skipReason(v)).length
  afterAll(() =>
    console.log(`read-indentation.json: ${passed} passed, ${skipped} skipped on purpose, of ${vectors.length}`)
  )
  for (const v of vectors) {
    const reason = skipReason(v)
    if (reason) {
      it.skip(`${v.kind}: ${v.id} — skipped: ${reason}`, () => {})
      continue
    }
    it(`${v.kind}: ${v.id}`, () => {
      const subject = subjectOf(v)
      for (const c of v.expect) check(subject, c)
      passed++
    })
  }
})
