import { imageNotSentNote } from '../../../shared/agent/images'
import type { ConversationMessage, ImageBlock, TextBlock, UserBlock } from '../../../shared/agent/messages'

const asNote = (image: ImageBlock): TextBlock => ({
  type: 'text',
  text: imageNotSentNote(image.mediaType, image.dataBase64)
})

const userBlockForModel = (block: UserBlock): UserBlock => {
  if (block.type === 'image') return asNote(block)
  if (block.type === 'tool_result')
    return { ...block, content: block.content.map((part) => (part.type === 'image' ? asNote(part) : part)) }
  return block
}

/**
 * The history as a model reads it. Screenshots, MCP images and the user's own images are kept in
 * the task for the user whatever the model; a model without image input gets a line in their place
 * (the same history may reach an image model later, after a switch).
 */
export function forModel(messages: ConversationMessage[], supportsImages: boolean): ConversationMessage[] {
  if (supportsImages) return messages
  return messages.map((message) =>
    message.role === 'user' ? { role: 'user', content: message.content.map(userBlockForModel) } : message
  )
}
