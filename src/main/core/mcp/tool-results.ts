import type { ImageBlock, TextBlock } from '../../../shared/agent/messages'
import type { ToolOutput } from '../ports/tool-types'

/** Above this a result is cut: one chatty server must not fill the context window. */
const MAX_TEXT_CHARS = 100_000
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
/** Base64 characters per image: Anthropic refuses images above 5 MB, which would fail the whole request. */
const MAX_IMAGE_CHARS = 5 * 1024 * 1024
/** Base64 characters of all images of one result: a server must not push a request past the providers' size limits. */
const MAX_RESULT_IMAGE_CHARS = 8 * 1024 * 1024

type Part = TextBlock | ImageBlock

/**
 * A `tools/call` result as the model reads it: text, images (as image blocks; the loop turns them
 * into a line for a model without image input), resource links, embedded resources and structured content. The server is untrusted:
 * any shape is accepted and anything unexpected becomes a line of text, never an exception.
 */
export function toolResultToOutput(result: unknown, options: { modelSupportsImages: boolean }): ToolOutput {
  const record = (result && typeof result === 'object' ? result : {}) as Record<string, unknown>
  const parts: Part[] = []
  const content = Array.isArray(record.content) ? record.content : []
  for (const item of content) parts.push(...contentPart(item, options))
  const structured = record.structuredContent
  if (
    structured !== undefined &&
    structured !== null &&
    !parts.some((part) => part.type === 'text' && part.text.trim())
  ) {
    parts.push({ type: 'text', text: safeJson(structured) })
  } else if (structured !== undefined && structured !== null) {
    parts.push({ type: 'text', text: `Structured content: ${safeJson(structured)}` })
  }
  if (!Array.isArray(record.content) && record.toolResult !== undefined)
    parts.push({ type: 'text', text: safeJson(record.toolResult) })
  if (parts.length === 0) parts.push({ type: 'text', text: '(The tool returned no content.)' })
  return { content: limitImages(limitText(parts)), isError: record.isError === true }
}

/** A `resources/read` result: each text content as is, blobs as images or a short note. */
export function resourceResultToOutput(result: unknown, options: { modelSupportsImages: boolean }): ToolOutput {
  const record = (result && typeof result === 'object' ? result : {}) as Record<string, unknown>
  const contents = Array.isArray(record.contents) ? record.contents : []
  const parts = contents.flatMap((item) => resourceContents(item, options))
  return {
    content: limitImages(limitText(parts.length ? parts : [{ type: 'text', text: '(The resource is empty.)' }])),
    isError: false
  }
}

/** A server's text field as text: a string as it is, a number or boolean spelled out, anything else empty. */
const field = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''

function contentPart(item: unknown, options: { modelSupportsImages: boolean }): Part[] {
  if (!item || typeof item !== 'object') return [{ type: 'text', text: `(Unreadable content item: ${safeJson(item)})` }]
  const part = item as Record<string, unknown>
  switch (part.type) {
    case 'text':
      return [{ type: 'text', text: field(part.text) }]
    case 'image':
      return image(field(part.mimeType), part.data)
    case 'audio':
      return [
        {
          type: 'text',
          text: `[audio ${field(part.mimeType)}, ${approxBytes(part.data)} bytes: not passed to the model]`
        }
      ]
    case 'resource_link': {
      const mimeType = field(part.mimeType)
      const description = field(part.description)
      return [
        {
          type: 'text',
          text: `Resource link: ${field(part.name) || field(part.uri)} <${field(part.uri)}>${mimeType ? ` (${mimeType})` : ''}${description ? ` — ${description}` : ''}`
        }
      ]
    }
    case 'resource':
      return resourceContents(part.resource, options)
    default:
      return [{ type: 'text', text: `(Content of type "${String(part.type)}": ${safeJson(part).slice(0, 500)})` }]
  }
}

// Images are kept for every model (see image()); the option stays in the signature its callers share.
function resourceContents(item: unknown, _options: { modelSupportsImages: boolean }): Part[] {
  if (!item || typeof item !== 'object') return [{ type: 'text', text: `(Unreadable resource: ${safeJson(item)})` }]
  const resource = item as Record<string, unknown>
  const uri = field(resource.uri)
  const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined
  if (typeof resource.text === 'string')
    return [{ type: 'text', text: `Resource ${uri}${mimeType ? ` (${mimeType})` : ''}:\n${resource.text}` }]
  if (mimeType && IMAGE_TYPES.has(mimeType))
    return [{ type: 'text', text: `Resource ${uri}:` }, ...image(mimeType, resource.blob)]
  return [
    {
      type: 'text',
      text: `Resource ${uri}${mimeType ? ` (${mimeType})` : ''}: binary, ${approxBytes(resource.blob)} bytes (not shown)`
    }
  ]
}

/** Images are kept whatever the model: the user sees them, and the loop sends them only to a model that reads them. */
function image(mimeType: string, data: unknown): Part[] {
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(data))
    return [{ type: 'text', text: '(An image whose data is not base64 was dropped.)' }]
  if (!IMAGE_TYPES.has(mimeType))
    return [{ type: 'text', text: `[image ${mimeType || 'of unknown type'}: not a type models accept]` }]
  const dataBase64 = data.replace(/\s/g, '')
  if (dataBase64.length > MAX_IMAGE_CHARS)
    return [
      {
        type: 'text',
        text: `[image ${mimeType}, ${approxBytes(dataBase64)} bytes: larger than the ${megabytes(MAX_IMAGE_CHARS)} MB a model takes, not passed]`
      }
    ]
  return [{ type: 'image', mediaType: mimeType, dataBase64 }]
}

/** Images past the result's budget become a line of text; the earlier ones are kept. */
const limitImages = (parts: Part[]): Part[] =>
  spendBudget(
    parts,
    'image',
    MAX_RESULT_IMAGE_CHARS,
    (image) => image.dataBase64.length,
    (image) => ({
      type: 'text',
      text: `[image ${image.mediaType}, ${approxBytes(image.dataBase64)} bytes: over the ${megabytes(MAX_RESULT_IMAGE_CHARS)} MB of images one result may carry, not passed]`
    })
  )

/** Text past the result's budget is cut where the budget ends. */
const limitText = (parts: Part[]): Part[] =>
  spendBudget(
    parts,
    'text',
    MAX_TEXT_CHARS,
    (text) => text.text.length,
    (text, room) => {
      const kept = text.text.slice(0, room)
      return { type: 'text', text: `${kept}\n[… ${text.text.length - kept.length} more characters cut]` }
    }
  )

/** Parts of one type are kept while their sizes fit the budget; the first that does not, and every later one, are replaced. */
function spendBudget<T extends Part['type']>(
  parts: Part[],
  type: T,
  budget: number,
  sizeOf: (part: Extract<Part, { type: T }>) => number,
  replace: (part: Extract<Part, { type: T }>, room: number) => Part
): Part[] {
  let room = budget
  return parts.map((part) => {
    if (part.type !== type) return part
    const typed = part as Extract<Part, { type: T }>
    const size = sizeOf(typed)
    if (size <= room) {
      room -= size
      return part
    }
    const replaced = replace(typed, room)
    room = 0
    return replaced
  })
}

const megabytes = (chars: number): number => chars / (1024 * 1024)
const approxBytes = (data: unknown): number => (typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0)

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}
