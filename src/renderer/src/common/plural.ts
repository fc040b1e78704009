/**
 * A count with its noun in the right number: `counted(1, 'hunk')` → "1 hunk", `counted(3, 'hunk')` →
 * "3 hunks". An irregular plural is passed in full.
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`
}

/** "2 of 3 hunks", "1 of 1 hunk": the noun follows the total. */
export function countedOf(part: number, total: number, singular: string, plural = `${singular}s`): string {
  return `${part} of ${counted(total, singular, plural)}`
}
