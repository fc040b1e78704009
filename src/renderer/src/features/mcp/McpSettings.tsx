import { useEffect, useId, useState, type ReactNode } from 'react'
import { FormError } from '../../components/FormError'
import { useClient } from '../../client/client-context'
import { useSettingsStore } from '../../common/settings/settings-store'

/** The contract's bound on the budget (`McpSettingsInput`). */
export const MAX_SCHEMA_BUDGET = 1_000_000

/** The budget typed in the field, or what is wrong with it in words. */
export function parseSchemaBudget(text: string): { budget: number } | { error: string } {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed)) return { error: 'The schema budget must be a whole number of tokens (0 or more).' }
  const budget = Number(trimmed)
  if (budget > MAX_SCHEMA_BUDGET)
    return { error: `The schema budget can be at most ${MAX_SCHEMA_BUDGET.toLocaleString('en')} tokens.` }
  return { budget }
}

/** Settings → MCP tools: how many tokens of server tool schemas a mode sends before they go on demand. */
export function McpSettings(): ReactNode {
  const client = useClient()
  const id = useId()
  const stored = useSettingsStore((state) => state.settings?.mcp.schemaTokenBudget)
  const [draft, setDraft] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    if (stored !== undefined) setDraft(String(stored))
  }, [stored])
  if (stored === undefined) return null

  const save = async (): Promise<void> => {
    setSaved(false)
    const parsed = parseSchemaBudget(draft)
    if ('error' in parsed) return setError(parsed.error)
    const problem = await useSettingsStore
      .getState()
      .save(client, 'settings:saveMcp', { schemaTokenBudget: parsed.budget })
    if (problem) return setError(problem)
    setError(null)
    setSaved(true)
  }

  return (
    <form
      className="mcp-settings"
      aria-label="MCP tools"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <label htmlFor={`${id}-budget`}>Tool schema budget (tokens)</label>
      <input
        id={`${id}-budget`}
        inputMode="numeric"
        aria-describedby={`${id}-budget-note`}
        aria-invalid={error ? true : undefined}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
      />
      <p className="note" id={`${id}-budget-note`}>
        When the server tools a mode may use cost more than this in schemas, they are not sent with every request: the
        model finds them with search_mcp_tools and loads a schema when it needs one. 0 always loads them on demand.
      </p>
      <div className="form-actions">
        <button type="submit">Save MCP settings</button>
        {saved && <span role="status">Saved</span>}
      </div>
      <FormError message={error} />
    </form>
  )
}
