import { systemPromptOf, toolResultsIn } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'
import { saveScreenshot } from './screenshots'

test('streams reasoning and Markdown, shows tool cards with their decisions, the todo list and meters', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    {
      reasoning: 'The user wants greet fixed. I should read it first.',
      text: 'I will **read** the file and keep a plan.',
      toolCalls: [
        { name: 'update_todo_list', input: { todos: '[x] Read the task\n[-] Read src/greet.ts\n[ ] Suggest a fix' } },
        { name: 'read_file', input: { path: 'src/greet.ts' } }
      ],
      chunkDelayMs: 20,
      usage: { inputTokens: 1800, outputTokens: 120 }
    },
    (request) => {
      const read = JSON.stringify(toolResultsIn(request))
      return {
        text: `The file says:\n\n\`\`\`ts\n${read.includes('Hello') ? 'export const greet = (name: string) => `Hello ${name}`' : 'missing'}\n\`\`\`\n\nLooks fine.`,
        toolCalls: [{ name: 'attempt_completion', input: { result: 'Checked **greet**: it already works.' } }],
        chunkDelayMs: 10,
        usage: { inputTokens: 2400, outputTokens: 90 }
      }
    }
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Check that greet works')
  await page.getByLabel('Message').press('Enter')

  // Streaming: the reply grows before it is complete.
  const firstReply = page.locator('.assistant-text').first()
  await expect(firstReply).toContainText('I will')
  await expect(firstReply.locator('strong')).toHaveText('read')
  await expect(page.locator('details.reasoning summary').first()).toBeVisible()

  const readCard = page.getByRole('group', { name: 'Tool call read_file' })
  await expect(readCard).toContainText('src/greet.ts')
  // The reason is a sentence; the policy's rule id is there on hover.
  await expect(readCard.locator('.tool-decision')).toHaveText('Reads are auto-approved in this mode.')
  await expect(readCard.locator('.tool-decision')).toHaveAttribute('title', 'Policy rule: auto-approve.read')
  await expect(readCard.locator('.phase')).toHaveText('done')
  await readCard.locator('summary').click()
  await expect(readCard.locator('.tool-result-text')).toContainText('Hello ${name}')

  const todos = page.getByRole('complementary', { name: 'Todo list' })
  await expect(todos).toContainText('Read src/greet.ts')
  await expect(todos.locator('.todo-in_progress')).toHaveText(/Read src\/greet\.ts/)

  // The second reply's code block is highlighted, and the completion offers accept/answer.
  await expect(page.locator('.md-code code').first()).toContainText('export const greet')
  await expect(page.locator('.md-code .tok-keyword').first()).toHaveText('export')
  const result = page.getByRole('group', { name: 'Task result' })
  await expect(result).toContainText('Checked greet: it already works.')
  await expect(page.locator('.meters')).toContainText('↑4.2k')
  await saveScreenshot(page, 'chat')
  await result.getByRole('button', { name: 'Accept result' }).click()
  await expect(result).toContainText('Accepted.')
  expect(modus.fake.failures).toEqual([])
})

test('a follow-up question is answered with a suggestion button', async ({ page, modus }) => {
  modus.fake.enqueue(
    {
      toolCalls: [
        {
          name: 'ask_followup_question',
          input: {
            question: 'Which greeting should it use?',
            follow_up: [{ text: 'Use "Hi"' }, { text: 'Keep "Hello"' }]
          }
        }
      ]
    },
    { toolCalls: [{ name: 'attempt_completion', input: { result: 'Kept Hello.' } }] }
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Change the greeting')
  await page.getByLabel('Message').press('Enter')
  const suggestions = page.getByRole('group', { name: 'Suggested answers' })
  await expect(suggestions).toBeVisible()
  await suggestions.getByRole('button', { name: 'Keep "Hello"' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Kept Hello.')
  const answered = modus.fake.requests.filter((r) => r.protocol === 'anthropic').at(-1)!
  expect(answered.rawBody).toContain('Keep \\"Hello\\"')
  await expect(suggestions).toBeHidden()
})

test('the mode picker starts the task in the chosen mode', async ({ page, modus }) => {
  modus.fake.enqueue({ toolCalls: [{ name: 'attempt_completion', input: { result: 'Here is the plan.' } }] })
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: /^Mode:/ }).click()
  await page
    .getByRole('menu', { name: 'Modes' })
    .getByRole('menuitemradio', { name: /^Architect/ })
    .click()
  await page.getByLabel('Message').fill('Plan a greeting feature')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Here is the plan.')
  const sent = modus.fake.requests.find((r) => r.protocol === 'anthropic')!
  expect(systemPromptOf(sent)).toMatch(/planning mode/)
})

test('a rate-limited request shows the retry countdown, then the answer', async ({ page, modus }) => {
  modus.fake.enqueue(
    { error: { status: 429, message: 'Slow down', retryAfter: 3 } },
    { toolCalls: [{ name: 'attempt_completion', input: { result: 'Answered after the retry.' } }] }
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Hello')
  await page.getByLabel('Message').press('Enter')
  await expect(page.locator('.retry')).toContainText(/Request failed \(429\), retrying (in \d+ s|now) \(attempt 1\)/)
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Answered after the retry.')
  await expect(page.locator('.retry')).toHaveCount(0)
})
