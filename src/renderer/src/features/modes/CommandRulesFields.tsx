import { useId, type ReactNode } from 'react'
import type { ModeDraft } from './mode-draft'

type RuleList = keyof ModeDraft['rules']

const LISTS: Array<{ key: RuleList; label: string; hint: string }> = [
  { key: 'allow', label: 'Allow', hint: 'npm test\ngit diff *' },
  { key: 'ask', label: 'Ask', hint: 'npm run *' },
  { key: 'deny', label: 'Deny', hint: 'git push *\nrm -rf *' }
]

/** One rule per line. Deny beats ask beats allow, whatever the order; every part of a compound command must pass. */
export function CommandRulesFields(props: {
  rules: ModeDraft['rules']
  error?: string
  legend?: string
  onChange(list: RuleList, value: string): void
}): ReactNode {
  const ids = useId()
  return (
    <fieldset className="command-rules">
      <legend>{props.legend ?? 'Command rules'}</legend>
      <p className="note">
        One rule per line: words match as leading words, <code>*</code> matches anything. Deny beats ask beats allow.
      </p>
      <div className="rule-lists">
        {LISTS.map(({ key, label, hint }) => (
          <div key={key} className="field">
            <label htmlFor={`${ids}-${key}`}>{label}</label>
            <textarea
              id={`${ids}-${key}`}
              className="mono"
              rows={4}
              value={props.rules[key]}
              placeholder={hint}
              spellCheck={false}
              onChange={(event) => props.onChange(key, event.target.value)}
            />
          </div>
        ))}
      </div>
      {props.error && <p className="field-error">{props.error}</p>}
    </fieldset>
  )
}
