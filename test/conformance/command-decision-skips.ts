/**
 * Command-decision vectors Modus answers differently on purpose, each with its reason. The list is
 * static: a vector missing here must pass, and a listed vector that starts to agree fails too, so a
 * regression can never hide behind a computed skip.
 */
export const COMMAND_DECISION_SKIPS: Readonly<Record<string, string>> = {
  'commands/should-auto-approve-array-assignment-command-with-wildcard-allowlist':
    "Roo auto_approve, Modus ask_user: assigning a variable off the inert list ('files') never auto-runs in Modus (issue 25 §2: variables are an allow-list; deliberate difference)",
  'commands/should-auto-approve-the-complex-node-e-one-liner-when-node-is-allowed':
    'Roo auto_approve, Modus ask_user: inline code (node -e) is never auto-approved in Modus, whatever the rules (deliberate difference)',
  'command-parser/should-extract-simple-command-pattern':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-extract-command-with-subcommand':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-stop-at-flags':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-stop-at-paths':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-pipes':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-operator':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/extractpatternsfromcommand-should-handle-operator':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-semicolon-separator':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-skip-numeric-commands':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-empty-command':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-null-undefined#1':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-null-undefined#2':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-scripts':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-paths-with-dots':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-paths-with-tilde':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-colons-in-arguments':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-return-sorted-patterns':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-complex-command-with-multiple-operators':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-malformed-commands-gracefully':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-not-treat-package-managers-specially':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-extract-at-most-3-levels':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-handle-multi-level-commands-like-gh-pr':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-extract-3-levels-for-git-remote-add':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-extract-3-levels-for-npm-run-build':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-stop-at-file-extensions-even-at-third-level':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-parser/should-stop-at-flags-at-any-level':
    "Modus suggests the narrowest rule per part (suggestNarrowestRule), not Roo's list of every prefix level",
  'command-validation-historical/splits-on-actual-newlines-even-within-quotes':
    'Roo splits newlines inside quotes; Modus keeps a quoted newline inside its argument',
  'command-validation-historical/matches-commands-case-insensitively#1':
    "Roo auto_approve, Modus ask_user: Roo matches rules case-insensitively ('npm test'); commands are case-sensitive in Modus",
  'command-validation-historical/matches-commands-case-insensitively#2':
    "Roo auto_approve, Modus ask_user: Roo matches rules case-insensitively ('npm test'); commands are case-sensitive in Modus",
  'command-validation-historical/matches-commands-case-insensitively#3':
    "Roo auto_approve, Modus ask_user: Roo matches rules case-insensitively ('echo'); commands are case-sensitive in Modus",
  'command-validation-historical/finds-the-longest-matching-prefix#1':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/finds-the-longest-matching-prefix#2':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/finds-the-longest-matching-prefix#3':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/returns-null-when-no-prefix-matches#1':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/returns-null-when-no-prefix-matches#2':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-case-insensitive-matching#1':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-case-insensitive-matching#2':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-empty-inputs#1':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-empty-inputs#2':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-empty-inputs#3':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/uses-longest-prefix-match-rule#1':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/handles-specific-pattern-vs-wildcard#1':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/uses-longest-prefix-match-rule-for-auto-approval':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/implements-longest-prefix-match-rule-correctly#1':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/provides-comprehensive-validation-details#3':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/provides-comprehensive-validation-details#4':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/provides-comprehensive-validation-details#5':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/provides-comprehensive-validation-details#6':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-complex-command-chains#3':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-complex-command-chains#4':
    'Modus has no longest-prefix matching: deny beats ask beats allow regardless of length',
  'command-validation-historical/handles-multiple-subshells-correctly#4':
    "Roo ask_user, Modus auto_deny: a denied command sits in a nested substitution, which Roo's splitter does not look into; Modus finds and denies it",
  'command-validation-historical/allows-only-read-only-commands#1':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/allows-only-read-only-commands#2':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/allows-only-read-only-commands#3':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/allows-only-read-only-commands#4':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/demonstrates-longest-prefix-match-resolution#1':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/handles-command-chains-with-mixed-decisions#2':
    'Roo auto_approve, Modus auto_deny: Roo lets a longer allow prefix beat a deny; in Modus deny beats allow whatever the length',
  'command-validation-historical/handles-empty-command':
    'Roo auto_approve, Modus ask_user: an empty or whitespace-only command is never auto-approved in Modus; Roo auto-approves it',
  'command-validation-historical/getsinglecommanddecision-handles-empty-command':
    'Roo auto_approve, Modus ask_user: an empty or whitespace-only command is never auto-approved in Modus; Roo auto-approves it',
  'command-validation-historical/getcommanddecision-handles-empty-command':
    'Roo auto_approve, Modus ask_user: an empty or whitespace-only command is never auto-approved in Modus; Roo auto-approves it',
  'command-validation-historical/handles-empty-commands-gracefully#1':
    'Roo auto_approve, Modus ask_user: an empty or whitespace-only command is never auto-approved in Modus; Roo auto-approves it',
  'command-validation-historical/handles-empty-commands-gracefully#2':
    'Roo auto_approve, Modus ask_user: an empty or whitespace-only command is never auto-approved in Modus; Roo auto-approves it',
  'command-validation-historical/handles-commands-with-only-whitespace#1':
    'Roo auto_approve, Modus ask_user: an empty or whitespace-only command is never auto-approved in Modus; Roo auto-approves it'
}
