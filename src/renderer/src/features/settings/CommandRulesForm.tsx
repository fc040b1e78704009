import type { ReactNode } from 'react'
import { SettingsForm, useSectionDraft } from '../../components/SettingsForm'
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
  const section = useSectionDraft<RuleTexts>('settings:command-rules', 'Command rules', saved ? toTexts(saved) : null)
  const texts = section.draft
  if (!texts) return null

  const save = async () => {
    const problem = await useSettingsStore.getState().save(client, 'settings:saveCommandRules', rulesFromTexts(texts))
    const stored = useSettingsStore.getState().settings?.commandRules
    // The core keeps one copy of each rule, trimmed: the form shows what it saved.
    if (!problem && stored) section.reset(toTexts(stored))
    section.done(problem, 'Command rules saved.')
  }

  return (
    <SettingsForm
      name="Command rules"
      label="Command rules for every mode"
      className="global-rules"
      dirty={section.dirty}
      valid
      status={section.status}
      error={section.error}
      onSave={() => void save()}
    >
      <CommandRulesFields
        rules={texts}
        legend="Rules for every mode"
        onChange={(list, value) => section.set(list, value)}
      />
    </SettingsForm>
  )
}
