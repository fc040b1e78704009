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
