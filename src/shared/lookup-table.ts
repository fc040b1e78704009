/**
 * A constant table keyed by text from outside (a command name, a tool name): without a prototype, so
 * a key such as `constructor`, `toString` or `__proto__` finds nothing instead of Object's own members.
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries))
}
