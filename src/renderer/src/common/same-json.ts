/**
 * Whether two answers from the core hold the same data (same key order, as the core writes them).
 * A store keeps its old value then, so the views reading it do not render again.
 */
export const sameJson = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b)
