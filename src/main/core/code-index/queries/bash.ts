export const bashQuery = String.raw`
(function_definition name: (word) @name) @definition.function
`
