import { FormError } from '../../components/FormError'
import { useEffect, useState, type ReactNode } from 'react'
import type { GlobalCommandRules } from '../../../../shared/contract/settings'
import { useClient } from '../../client/client-context'
import { CommandRulesFields } from '../../common/modes/CommandRulesFields'
import { useSettingsStore } from '../../common/settings/settings-store'

type RuleTexts = { allow: string; ask: string; deny: string }

const toTexts = (rules: GlobalCommandRules): RuleTexts => ({
  allow: rules.allow.join('\n'),
  ask: rules.ask.join('\n'),
  deny: rules.deny.join('\n')
})

/** One rule per line; blank lines and surrounding spaces are dropped. */
export const rulesFromTexts = (texts: RuleTexts): GlobalCommandRules => {
  const lines = (text: string) => [
    ...new Set(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
    )
  ]
  return { allow: lines(texts.allow), ask: lines(texts.ask), deny: lines(texts.deny) }
}

/** Command rules that apply in every mode; each mode adds its own in the mode editor. */
export function CommandRulesForm(): ReactNode {
  const client = useClient()
  const saved = useSettingsStore((state) => state.settings?.commandRules)
  const [texts, setTexts] = useState<RuleTexts | null>(saved ? toTexts(saved) : null)
  const [status, setStatus] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (saved && !texts) setTexts(toTexts(saved))
  }, [saved, texts])
  if (!texts) return null

  const save = async () => {
    setError(null)
    const problem = await useSettingsStore.getState().save(client, 'settings:saveCommandRules', rulesFromTexts(texts))
    if (problem) return setError(problem)
    setTexts(toTexts(useSettingsStore.getState().settings!.commandRules))
    setStatus('Command rules saved.')
  }

  return (
    <form
      className="global-rules"
      aria-label="Command rules for every mode"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <CommandRulesFields
        rules={texts}
        legend="Rules for every mode"
        onChange={(list, value) => {
          setStatus(null)
          setTexts({ ...texts, [list]: value })
        }}
      />
      <div className="form-actions">
        <button type="submit">Save command rules</button>
        <span className="note" role="status">
          {status}
        </span>
      </div>
      <FormError message={error} />
    </form>
  )
}
