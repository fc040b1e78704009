/**
 * Model-supplied text printed to a terminal has its control characters made visible: an escape or
 * carriage-return sequence could otherwise erase `rm -rf …` on screen and show `Run ls -la` in its
 * place. Newlines and tabs stay; C0/C1 controls, DEL and bidirectional overrides are shown as
 * escapes (`\x1b`, `\r`, `\u202e`).
 */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export function visible(text: string): string {
  return text.replace(HIDDEN, (char) => {
    const code = char.charCodeAt(0)
    if (char === '\r') return '\\r'
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}
