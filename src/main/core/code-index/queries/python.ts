/** Python: functions inside a class are reported as methods (see languages.ts). */
export const pythonQuery = String.raw`
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
`
