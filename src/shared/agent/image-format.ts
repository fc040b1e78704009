// Zod-free, so the composer can check a file before it leaves the page without loading the schema
// library into the first chunk (issue 28 item 21); the schemas are in images.ts.

/**
 * Images the user attaches to a message (the composer's paste or drop, the CLI's `--image`). The
 * limits are the providers': Anthropic refuses an image whose base64 passes 5 MB, and the whole
 * request must stay well under the web host's 32 MB frame.
 */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number]

/** Base64 characters of one image (Anthropic's limit). */
export const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024
/** The largest file that fits: base64 grows bytes by 4/3. */
export const MAX_IMAGE_BYTES = Math.floor((MAX_IMAGE_BASE64_CHARS * 3) / 4)
/** Base64 characters of all images of one message. */
export const MAX_MESSAGE_IMAGE_CHARS = 20 * 1024 * 1024
export const MAX_IMAGES_PER_MESSAGE = 10

/** The first bytes each type starts with; a file whose bytes say otherwise is refused. */
const SIGNATURES: Record<ImageMediaType, (bytes: number[]) => boolean> = {
  'image/png': (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => String.fromCharCode(...b.slice(0, 4)) === 'GIF8',
  'image/webp': (b) =>
    String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP'
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** The first bytes of base64 data (16 characters give 12 bytes); shared code has no atob or Buffer. */
function leadingBytes(dataBase64: string): number[] {
  const bytes: number[] = []
  const chars = dataBase64.slice(0, 16)
  for (let i = 0; i + 4 <= chars.length; i += 4) {
    const values = [...chars.slice(i, i + 4)].map((char) => BASE64_ALPHABET.indexOf(char))
    if (values.some((value) => value < 0)) return bytes
    const word = (values[0] << 18) | (values[1] << 12) | (values[2] << 6) | values[3]
    bytes.push((word >> 16) & 0xff, (word >> 8) & 0xff, word & 0xff)
  }
  return bytes
}

/** The image type the bytes show, or null when they are none of the accepted ones. */
export function sniffImageType(dataBase64: string): ImageMediaType | null {
  const bytes = leadingBytes(dataBase64)
  return IMAGE_MEDIA_TYPES.find((type) => SIGNATURES[type](bytes)) ?? null
}

/** Bytes a base64 string decodes to. */
export const base64Bytes = (dataBase64: string): number =>
  Math.floor((dataBase64.length * 3) / 4) - (dataBase64.endsWith('==') ? 2 : dataBase64.endsWith('=') ? 1 : 0)

export const formatMegabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/** The line a model without image input gets instead of an image it cannot read. */
export const imageNotSentNote = (mediaType: string, dataBase64: string): string =>
  `[image ${mediaType}, ${base64Bytes(dataBase64)} bytes: shown to the user, not sent — this model does not take images]`
