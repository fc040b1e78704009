import type { ReactNode } from 'react'
import { Field, SettingsForm, useSectionDraft } from '../../components/SettingsForm'
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
  const stored = useSettingsStore((state) => state.settings?.mcp.schemaTokenBudget)
  const section = useSectionDraft('settings:mcp', 'MCP tools', stored === undefined ? null : { budget: String(stored) })
  const draft = section.draft
  if (!draft) return null
  const parsed = parseSchemaBudget(draft.budget)

  const save = async (): Promise<void> => {
    if ('error' in parsed) return
    const problem = await useSettingsStore
      .getState()
      .save(client, 'settings:saveMcp', { schemaTokenBudget: parsed.budget })
    // The form shows what was saved (" 500 " is saved as 500).
    if (!problem) section.reset({ budget: String(parsed.budget) })
    section.done(problem, 'MCP settings saved.')
  }

  return (
    <SettingsForm
      name="MCP settings"
      label="MCP tools"
      className="mcp-settings"
      dirty={section.dirty}
      valid={!('error' in parsed)}
      status={section.status}
      error={section.error}
      onSave={() => void save()}
    >
      <Field
        label="Tool schema budget (tokens)"
        hint="When the server tools a mode may use cost more than this in schemas, they are not sent with every request: the model finds them with search_mcp_tools and loads a schema when it needs one. 0 always loads them on demand."
        error={'error' in parsed ? parsed.error : null}
        touched={section.touched('budget')}
        onTouch={() => section.touch('budget')}
      >
        {(input) => (
          <input
            {...input}
            inputMode="numeric"
            value={draft.budget}
            onChange={(event) => section.set('budget', event.target.value)}
          />
        )}
      </Field>
    </SettingsForm>
  )
}
