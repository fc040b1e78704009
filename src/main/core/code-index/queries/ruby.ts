/** Ruby: a def inside a class or module is a method, at the top level a function (see languages.ts). */
export const rubyQuery = String.raw`
(class name: (_) @name) @definition.class
(module name: (_) @name) @definition.module
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
`
