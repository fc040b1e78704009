import { readFileSync } from 'node:fs'
import { expect, openWorkspaceAndProvider, test } from './harness'

test('a finished task is in the history: search finds it, export downloads Markdown, delete asks first', async ({
  page,
  modus
}) => {
  modus.fake.enqueue({
    text: 'The project has one helper, greet.',
    toolCalls: [{ name: 'attempt_completion', input: { result: 'The greeting helper is documented in the README.' } }]
  })
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Document the greeting helper')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText(
    'The greeting helper is documented in the README.'
  )

  await page.getByRole('button', { name: 'History' }).click()
  const row = page.getByRole('listitem', { name: 'Document the greeting helper' })
  await expect(row).toBeVisible()
  await expect(row).toContainText('code')
  await expect(row).toContainText('completed')

  const search = page.getByLabel('Search tasks')
  await search.fill('greeting')
  await expect(row).toBeVisible()
  await search.fill('no such words here')
  await expect(row).toHaveCount(0)
  await expect(page.getByText('0 of 1 task', { exact: true })).toBeVisible()
  await search.fill('document')
  await expect(row).toBeVisible()

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Export Markdown' }).click()
  ])
  expect(download.suggestedFilename()).toMatch(/\.md$/)
  const markdown = readFileSync(await download.path(), 'utf8')
  expect(markdown).toContain('Document the greeting helper')
  expect(markdown).toContain('The greeting helper is documented in the README.')

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Export JSON' }).click()
  ])
  expect(json.suggestedFilename()).toMatch(/\.json$/)
  const exported = JSON.parse(readFileSync(await json.path(), 'utf8')) as unknown
  expect(JSON.stringify(exported)).toContain('Document the greeting helper')

  await row.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: /Delete task/ })
  await expect(confirm).toContainText('cannot be undone')
  await confirm.getByRole('button', { name: 'Keep' }).click()
  await expect(row).toBeVisible()
  await row.getByRole('button', { name: 'Delete' }).click()
  await page
    .getByRole('alertdialog', { name: /Delete task/ })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(row).toHaveCount(0)

  // Gone for good: a reload does not bring it back.
  await page.reload()
  await page.getByRole('button', { name: 'History' }).click()
  await expect(page.getByText('No tasks yet.')).toBeVisible()
})

test('opening a task from the history shows its conversation in the chat', async ({ page, modus }) => {
  modus.fake.enqueue({
    text: 'Here is a short answer about the project.',
    toolCalls: [{ name: 'attempt_completion', input: { result: 'Summary given.' } }]
  })
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Summarise the project')
  await page.getByLabel('Message').press('Enter')
  await expect(page.locator('.assistant-text').last()).toHaveText('Here is a short answer about the project.')
  // A reload reopens the last task; a new task empties the chat, so what it shows next comes from the history.
  await page.reload()
  await expect(page.getByText('Here is a short answer about the project.')).toBeVisible()
  await page.getByRole('button', { name: 'New task' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
  await expect(page.getByText('Here is a short answer about the project.')).toHaveCount(0)
  await page.getByRole('button', { name: 'History' }).click()
  await page.getByRole('listitem', { name: 'Summarise the project' }).getByRole('button', { name: 'Open' }).click()
  await expect(page.getByText('Here is a short answer about the project.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByLabel('Message')).toBeVisible()
})

test('a failed task is resumed from the history and finishes', async ({ page, modus }) => {
  modus.fake.enqueue(
    { error: { status: 400, message: 'The fake model refuses this once' } },
    { text: 'Recovered.', toolCalls: [{ name: 'attempt_completion', input: { result: 'Finished after resuming.' } }] }
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Do something that fails first')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('The fake model refuses this once').first()).toBeVisible()

  await page.getByRole('button', { name: 'History' }).click()
  const row = page.getByRole('listitem', { name: 'Do something that fails first' })
  await expect(row).toContainText('failed')
  await row.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Finished after resuming.')

  await page.getByRole('button', { name: 'History' }).click()
  await expect(page.getByRole('listitem', { name: 'Do something that fails first' })).toContainText('completed')
})

test('a task resumed from the history shows its whole conversation in the chat, after a new task and after a reload', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    { error: { status: 400, message: 'The fake model refuses this once' } },
    { text: 'Recovered.', toolCalls: [{ name: 'attempt_completion', input: { result: 'Finished after resuming.' } }] }
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Remember this request')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('The fake model refuses this once').first()).toBeVisible()

  // Another task takes the chat, then the page is reloaded: the resumed task must bring its own conversation.
  await page.getByRole('button', { name: 'New task' }).click()
  // The new task's start lists it under Recent tasks; its conversation is gone from the chat.
  await expect(page.locator('.bubble.user').filter({ hasText: 'Remember this request' })).toHaveCount(0)
  await page.reload()
  await page.getByRole('button', { name: 'History' }).click()
  const row = page.getByRole('listitem', { name: 'Remember this request' })
  await expect(row).toContainText('failed')
  await row.getByRole('button', { name: 'Resume' }).click()
  await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Finished after resuming.')
  // The conversation before the resume is still there, above the resumed run.
  await expect(page.locator('.bubble.user').filter({ hasText: 'Remember this request' })).toBeVisible()
  await expect(page.getByText('The fake model refuses this once').first()).toBeVisible()
  await expect(page.locator('.assistant-text').filter({ hasText: 'Recovered.' })).toBeVisible()
})
