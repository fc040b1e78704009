import type { ImageBlock, TextBlock } from '../../../shared/agent/messages'

/** What a tool hands back to the model. */
export interface ToolOutput {
  content: Array<TextBlock | ImageBlock>
  isError: boolean
}

export const textOutput = (text: string, isError = false): ToolOutput => ({
  content: [{ type: 'text', text }],
  isError
})
