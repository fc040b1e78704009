import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'

// Cards offer the actions that fit them, named for what they do; names users see are their words
// (task titles, sentences, "cost unknown"), never internal ids.

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const nav = (page: Page) => page.getByRole('navigation', { name: 'Views' })

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text)
  await page.getByLabel('Message').press('Enter')
}

/** A local OpenAI-compatible server whose model is in no price table. */
async function openWithUnknownModel(page: Page, modus: ModusHarness): Promise<void> {
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByLabel('Provider', { exact: true }).selectOption('openai')
  await page.getByLabel(/Base URL/).fill(modus.fake.openaiBaseUrl)
  await page.getByLabel('Model').fill('qwen3-coder')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
}

test('a rejected key: the error card offers Retry and Open settings; an unknown price is "cost unknown", never $0.00', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    { error: { status: 401, message: 'invalid x-api-key' } },
    {
      text: 'Fine now.',
      toolCalls: [{ name: 'attempt_completion', input: { result: 'Answered after the retry.' } }],
      usage: { inputTokens: 900, outputTokens: 40 }
    }
  )
  await openWithUnknownModel(page, modus)
  await send(page, 'Summarise the README')
  const error = page.locator('.bubble.error')
  await expect(error).toContainText('rejected the API key')
  await expect(error.getByRole('button')).toHaveText(['Retry', 'Open settings'])

  // The failed task made no request that was billed, but its price is unknown: History says so.
  await nav(page).getByRole('button', { name: 'History' }).click()
  const row = page.getByRole('listitem', { name: 'Summarise the README' })
  await expect(row).toContainText('cost unknown')
  await expect(row).not.toContainText('$0.00')

  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await error.getByRole('button', { name: 'Open settings' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
  await nav(page).getByRole('button', { name: 'Chat' }).click()
  await error.getByRole('button', { name: 'Retry' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Answered after the retry.')
  await expect(error.getByRole('button')).toHaveCount(0)
  await expect(page.locator('.meters .cost')).toHaveText('cost unknown')
})

test('the mistake-limit card says its sentence once and stops the task without asking for a reason', async ({
  page,
  modus
}) => {
  const invalidRead = { toolCalls: [{ name: 'read_file', input: {} }] }
  modus.fake.enqueue(invalidRead, invalidRead, invalidRead)
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Read something')
  const card = page.getByRole('group', { name: 'Mistake limit reached' })
  await expect(card).toContainText('The model made 3 mistakes in a row')
  await expect(card.getByText(/The model made 3 mistakes in a row/)).toHaveCount(1)
  await expect(card.locator('.approval-buttons button')).toHaveText(['Continue', 'Stop the task'])
  await expect(card.getByLabel('Guidance for the model (optional; it goes along when you continue)')).toBeVisible()
  await card.getByRole('button', { name: 'Stop the task' }).click()
  await expect(card).toContainText('You stopped the task here.')
  await expect(card.getByLabel(/reason/i)).toHaveCount(0)
  await expect(page.locator('.task-status')).toHaveText('Stopped at a limit')
  expect(modus.fake.requests.filter((r) => r.protocol === 'anthropic' && r.path.endsWith('/messages'))).toHaveLength(3)

  // In the queue, the same pause says its sentence once too.
  modus.fake.enqueue(invalidRead, invalidRead, invalidRead)
  await page.getByRole('button', { name: 'New task' }).click()
  await send(page, 'Read something else')
  await expect(page.getByRole('group', { name: 'Mistake limit reached' }).last()).toBeVisible()
  await nav(page)
    .getByRole('button', { name: /Approvals/ })
    .click()
  const queued = page.locator('.approval-card[aria-current="true"]')
  await expect(queued.getByText(/The model made 3 mistakes in a row/)).toHaveCount(1)
})

test('"New task" while a task waits says the old one keeps waiting, and goes back to it', async ({ page, modus }) => {
  modus.fake.enqueue({ toolCalls: [{ name: 'execute_command', input: { command: 'rm -rf build' } }] })
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Clean the build folder')
  await expect(page.getByRole('group', { name: 'Tool call execute_command' }).locator('.phase')).toHaveText(
    'waiting for approval'
  )
  await page.getByRole('button', { name: 'New task' }).click()
  const notice = page.locator('.left-task')
  await expect(notice).toHaveText(
    '“Clean the build folder” keeps waiting for you: its approval stays in Approvals. Back to it'
  )
  await notice.getByRole('button', { name: 'Back to it' }).click()
  await expect(page.locator('.task-title')).toHaveText('Clean the build folder')
  await expect(page.getByRole('group', { name: 'Tool call execute_command' }).locator('.phase')).toHaveText(
    'waiting for approval'
  )
})

test('a task terminal is named by its task and command, never by a task id', async ({ page, modus }) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: 'git status --short' } }] },
    completion('Checked.')
  )
  await openWorkspaceAndProvider(page, modus)
  await send(page, 'Check the repository state')
  await expect(page.getByRole('group', { name: 'Tool call execute_command' }).locator('.phase')).toHaveText(
    /running|failed|done/
  )
  await nav(page).getByRole('button', { name: 'Terminal', exact: true }).click()
  const tab = page.getByRole('tab').first()
  // The shell may take a while to start on a loaded machine.
  await expect(tab).toContainText('Check the repository state · git status --short', { timeout: 60_000 })
  await expect(tab).not.toContainText(/Task [0-9a-z-]{6,}/)
})

test('the model facts in Settings wrap between words, never inside one', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await nav(page).getByRole('button', { name: 'Settings' }).click()
  const facts = page.locator('.provider-facts dd', { hasText: 'per M tokens' })
  await expect(facts).toContainText('per M tokens')
  const brokenWords: string[] = []
  for (let width = 360; width <= 720; width += 40) {
    await page.setViewportSize({ width, height: 700 })
    brokenWords.push(
      ...(await facts.evaluate((element) => {
        const broken: string[] = []
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? ''
          for (const match of text.matchAll(/[A-Za-z]{4,}/g)) {
            const range = document.createRange()
            range.setStart(node, match.index)
            range.setEnd(node, match.index + match[0].length)
            const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
            if (tops.size > 1) broken.push(match[0])
          }
        }
        return broken
      }))
    )
  }
  expect(brokenWords).toEqual([])
})
