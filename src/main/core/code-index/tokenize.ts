import { termsColumn } from './terms-column'

/**
 * Terms of code or a query: each identifier lowercased, plus its camelCase / snake_case parts, so
 * `parseSourceFile` matches "parse source file" and `MAX_RESULTS` matches "max results". The same
 * terms as the chunks' full-text column holds (one scanner makes both).
 */
export function tokenize(text: string): string[] {
  const { bytes } = termsColumn([text])
  // Terms are ASCII: one byte per character.
  return bytes.length === 0
    ? []
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1').split(' ')
}
