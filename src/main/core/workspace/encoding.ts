import type { TextEncodingName } from './types'

const SAMPLE_BYTES = 8192

/** Encoding from the BOM; without one, UTF-8 when valid, else Latin-1. Null: binary content. */
export function detectEncoding(bytes: Uint8Array): TextEncodingName | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8bom'
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le'
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be'
  if (looksBinary(bytes)) return null
  return isValidUtf8(bytes) ? 'utf8' : 'latin1'
}

/** NUL bytes, or many control characters, in the first 8 KB. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SAMPLE_BYTES)
  let control = 0
  for (let i = 0; i < n; i++) {
    const b = bytes[i]
    if (b === 0) return true
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 8 && b !== 27) control++
  }
  return n > 0 && control / n > 0.1
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    // A multi-byte character cut at the end of a sample is still UTF-8.
    return false
  }
}

function swapPairs(bytes: Uint8Array): Buffer {
  const out = Buffer.from(bytes)
  for (let i = 0; i + 1 < out.length; i += 2) {
    const t = out[i]
    out[i] = out[i + 1]
    out[i + 1] = t
  }
  return out
}

export function decodeText(bytes: Uint8Array, encoding: TextEncodingName): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  switch (encoding) {
    case 'utf8':
      return buf.toString('utf8')
    case 'utf8bom':
      return buf.subarray(3).toString('utf8')
    case 'utf16le':
      return buf.subarray(2).toString('utf16le')
    case 'utf16be':
      return swapPairs(buf.subarray(2)).toString('utf16le')
    case 'latin1':
      return buf.toString('latin1')
  }
}

export function encodeText(text: string, encoding: TextEncodingName): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8')
    case 'utf8bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), swapPairs(Buffer.from(text, 'utf16le'))])
    case 'latin1':
      return Buffer.from(text, 'latin1')
  }
}
