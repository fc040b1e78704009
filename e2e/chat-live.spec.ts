import { expect, openWorkspaceAndProvider, test } from './harness'

// Issue #28 items 10–12: what the chat shows while something is still going on.

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })

test('reloads in the middle of a streamed reply show each word once', async ({ page, modus }) => {
  test.setTimeout(120_000)
  const steps = Array.from({ length: 150 }, (_, n) => `Step ${n + 1}: checking part ${n + 1}.`)
  const reply = steps.join(' ')
  // One chunk per word, a few ms apart (several per frame): the reloads below land mid-stream,
  // while words the page received are still waiting for the next frame.
  modus.fake.enqueue({ text: reply, chunkDelayMs: 6 }, completion('Checked.'))
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Check every part')
  await page.getByLabel('Message').press('Enter')
  const text = page.locator('.assistant-text').first()
  for (const seen of ['Step 5:', 'Step 40:', 'Step 80:']) {
    await expect(text).toContainText(seen)
    await page.reload()
  }
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Checked.')
  // Compared as the user reads it: the words in order, none repeated at a seam.
  await expect(text).toHaveText(reply)
})

test('a rate-limited request is a row of the chat, announced once, with Retry now and Stop', async ({
  page,
  modus
}) => {
  // The server asks for two minutes: only "Retry now" brings the answer within the test.
  modus.fake.enqueue(
    { error: { status: 429, message: 'Slow down', retryAfter: 120 } },
    completion('Answered after the retry.'),
    { error: { status: 429, message: 'Slow down again', retryAfter: 120 } }
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Hello')
  await page.getByLabel('Message').press('Enter')
  const row = page.getByRole('group', { name: 'Retrying the request' })
  await expect(row.locator('.retry')).toHaveText(/^Request failed \(429\), retrying in \d+ s \(attempt 1\)$/)
  await expect(row.locator('.retry-reason')).toContainText('Slow down')
  // One status message; the ticking countdown is hidden from screen readers.
  const status = row.getByRole('status')
  await expect(status).toHaveText(/^Request failed \(429\), retrying in 1[12]\d s\. Attempt 1\.$/)
  const announced = await status.textContent()
  await expect(row.locator('.retry')).not.toHaveText(new RegExp(`in ${/in (\d+) s/.exec(announced!)![1]} s`))
  await expect(status).toHaveText(announced!)
  await expect(row.locator('.retry')).toHaveAttribute('aria-hidden', 'true')

  await row.getByRole('button', { name: 'Retry now' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Answered after the retry.')
  await expect(row).toHaveCount(0)

  await page.getByLabel('Message').fill('Once more')
  await page.getByLabel('Message').press('Enter')
  await expect(row.locator('.retry')).toContainText('attempt 1')
  await row.getByRole('button', { name: 'Stop' }).focus()
  await page.keyboard.press('Enter')
  await expect(row).toHaveCount(0)
  await expect(page.locator('.task-status')).toHaveText('Stopped')
  await expect(page.getByLabel('Message')).toBeFocused()
  expect(modus.fake.requests.filter((r) => r.protocol === 'anthropic')).toHaveLength(3)
})
