export const phpQuery = String.raw`
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(namespace_definition name: (namespace_name) @name) @definition.module
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
`
