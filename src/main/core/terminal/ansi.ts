/**
 * Turns raw pty text into what the model reads: escape sequences and stray control characters
 * removed, CRLF folded to LF. Works chunk by chunk, carrying an escape sequence or a CR that a
 * chunk boundary cut in two. The fast path (no ESC, no CR, no control chars) returns the chunk.
 */
// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, charset selections, two-byte escapes,
// CR before LF, and C0 controls other than TAB, LF and CR.
const MODEL_NOISE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[()*+#%][ -~]|\x1b[ -/]*[0-OQ-WYZ\\`-~]|\r(?=\n)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g

const CRLF = /\r\n/g

const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g
// What an escape sequence cut by a chunk boundary can look like.

const UNFINISHED = /^\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*|[()*+#%]|[ -/]*)?$/
/** Longest unfinished escape sequence we hold back for the next chunk. */
const MAX_CARRY = 4096

export interface ModelTextFilter {
  push(raw: string): string
  /** Whatever is still held back, with unfinished sequences dropped. */
  end(): string
}

export function createModelTextFilter(): ModelTextFilter {
  let carry = ''
  return {
    push(raw) {
      let text = carry ? carry + raw : raw
      carry = ''
      if (text.indexOf('\x1b') < 0) {
        // Hot path (a pty turns every LF into CRLF): no escape sequence, only line ends to fold.
        // Other control characters are removed when the text is shown (see cleanControls).
        if (text.indexOf('\r') >= 0) text = text.replace(CRLF, '\n')
        if (text.endsWith('\r')) {
          carry = '\r'
          text = text.slice(0, -1)
        }
        return text
      }
      text = text.replace(MODEL_NOISE, '')
      const lastEsc = text.lastIndexOf('\x1b')
      if (lastEsc >= 0 && text.length - lastEsc <= MAX_CARRY && UNFINISHED.test(text.slice(lastEsc))) {
        carry = text.slice(lastEsc)
        text = text.slice(0, lastEsc)
      } else if (text.endsWith('\r')) {
        carry = '\r'
        text = text.slice(0, -1)
      }
      return text.includes('\x1b') ? text.replace(/\x1b/g, '') : text
    },
    end() {
      // The carry is an unfinished escape sequence or a lone trailing CR: neither is text.
      carry = ''
      return ''
    }
  }
}

/** Removes control characters other than TAB, LF and CR (BEL, backspace…) from text to show. */
export function cleanControls(text: string): string {
  return text.replace(CONTROLS, '')
}

/**
 * Progress bars redraw a line with bare CRs; a terminal shows only the last redraw, so the model
 * should too. Keeps, for every line, the text after its last bare CR.
 */
export function collapseCarriageReturns(input: string): string {
  const text = cleanControls(input)
  if (!text.includes('\r')) return text
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line
      const at = trimmed.lastIndexOf('\r')
      return at < 0 ? trimmed : trimmed.slice(at + 1)
    })
    .join('\n')
}
