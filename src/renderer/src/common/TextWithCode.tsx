import type { ReactNode } from 'react'

/**
 * A line of text whose `backticked` parts are code, as the core writes them (the trust prompt's
 * grants, e.g. "auto-approve commands matching `npm test *`"). Only backticks are read: the rest stays
 * plain text, never HTML. An unpaired backtick is kept as typed.
 */
export function TextWithCode({ text }: { text: string }): ReactNode {
  const parts = text.split('`')
  if (parts.length % 2 === 0) return text
  return parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))
}
