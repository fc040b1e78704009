import { z } from 'zod'
import { defineTool } from './define'

const askFollowupQuestionParams = z
  .object({
    question: z.string().min(1),
    follow_up: z
      .array(
        z
          .object({
            text: z.string().min(1).describe('A complete suggested answer'),
            mode: z.string().min(1).optional().describe('Mode to switch to if chosen')
          })
          .strict()
      )
      .min(1)
      .max(4)
      .describe('1-4 suggested answers')
  })
  .strict()

export const askFollowupQuestionTool = defineTool({
  name: 'ask_followup_question',
  group: 'always',
  description: 'Ask the user a question when you cannot proceed without their answer.',
  params: askFollowupQuestionParams,
  effect: 'task-control',
  asksUser: true,
  answeredByUserMessage: true,
  summarize: (p) => `Ask: ${p.question}`
})

export type AskFollowupQuestionParams = z.output<typeof askFollowupQuestionParams>
