import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation'

export type ArgumentCheck = { ok: true } | { ok: false; message: string }

/**
 * Checks a call's arguments against the tool's `inputSchema` before anything is sent, so the model
 * gets an error naming the field instead of a server's stack trace. A schema that does not compile
 * is left to the server to enforce.
 */
export function createArgumentChecker(): (
  server: string,
  tool: string,
  schema: unknown,
  args: unknown
) => ArgumentCheck {
  const validator = new AjvJsonSchemaValidator()
  const compiled = new Map<string, JsonSchemaValidator<unknown> | null>()
  const compile = (schema: unknown): JsonSchemaValidator<unknown> | null => {
    const key = JSON.stringify(schema)
    if (!compiled.has(key)) {
      try {
        // The `$schema` dialect URL would make the validator fetch a meta-schema it does not bundle.
        const { $schema: _dialect, ...rest } = (schema ?? {}) as Record<string, unknown>
        compiled.set(key, validator.getValidator(rest))
      } catch {
        compiled.set(key, null)
      }
    }
    return compiled.get(key) ?? null
  }
  return (server, tool, schema, args) => {
    if (!schema || typeof schema !== 'object') return { ok: true }
    const check = compile(schema)
    if (!check) return { ok: true }
    const result = check(args ?? {})
    if (result.valid) return { ok: true }
    const detail = result.errorMessage.replace(/\bdata\//g, '').replace(/\bdata\b/g, 'arguments')
    return {
      ok: false,
      message: `Invalid arguments for MCP tool '${tool}' of server '${server}': ${detail}. Check the tool's input schema and call it again.`
    }
  }
}
