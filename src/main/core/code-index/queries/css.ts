/** CSS: rule sets, keyframes and media blocks (a selector or at-rule is the name). */
export const cssQuery = String.raw`
(rule_set (selectors) @name) @definition.rule
(keyframes_statement (keyframes_name) @name) @definition.rule
(media_statement) @definition.rule @name
`
