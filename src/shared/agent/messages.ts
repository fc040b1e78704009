/**
 * The conversation as Modus keeps it, independent of any provider. Providers translate it to their
 * wire format (Anthropic content blocks, OpenAI chat messages) and back.
 */
export type ImageBlock = { type: 'image'; mediaType: string; dataBase64: string }
export type TextBlock = { type: 'text'; text: string }
export type ReasoningBlock = { type: 'reasoning'; text: string; signature?: string }
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown }
export type ToolResultBlock = {
  type: 'tool_result'
  toolUseId: string
  content: Array<TextBlock | ImageBlock>
  isError: boolean
}

export type UserBlock = TextBlock | ImageBlock | ToolResultBlock
export type AssistantBlock = TextBlock | ReasoningBlock | ToolUseBlock

export type ConversationMessage =
  { role: 'user'; content: UserBlock[] } | { role: 'assistant'; content: AssistantBlock[] }
