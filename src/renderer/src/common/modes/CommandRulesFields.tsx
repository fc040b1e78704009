import { useId, type ReactNode } from 'react'

/** A mode's (or the global) command rules as the form edits them: one rule per line. */
export interface CommandRuleLines {
  allow: string
  ask: string
  deny: string
}

type RuleList = keyof CommandRuleLines

const LISTS: Array<{ key: RuleList; label: string; hint: string }> = [
  { key: 'allow', label: 'Allow', hint: 'npm test\ngit diff *' },
  { key: 'ask', label: 'Ask', hint: 'npm run *' },
  { key: 'deny', label: 'Deny', hint: 'git push *\nrm -rf *' }
]

/** One rule per line. Deny beats ask beats allow, whatever the order; every part of a compound command must pass. */
export function CommandRulesFields(props: {
  rules: CommandRuleLines
  error?: string
  legend?: string
  onChange(list: RuleList, value: string): void
}): ReactNode {
  const ids = useId()
  return (
    <fieldset className="command-rules">
      <legend>{props.legend ?? 'Command rules'}</legend>
      <p className="note">
        One rule per line: <code>git diff</code> matches that command with any further arguments (never{' '}
        <code>gitk</code>); <code>*</code> matches any text and the rule is anchored at both ends (
        <code>git * main</code>); a trailing <code> *</code> or <code>:*</code> also matches the bare command. Deny
        beats ask beats allow. Allow rules run a command only when “Run commands that match an allow rule” is on; every
        part of a compound command must match.
      </p>
      {/^\s*\*\s*$/m.test(props.rules.allow) && (
        <p className="warn-text" role="alert">
          The allow rule <code>*</code> runs every command without asking (deny and ask rules, writes outside the
          workspace and “always ask” constructs still ask).
        </p>
      )}
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
