import { expect, openWorkspaceAndProvider, test } from './harness'

test('Settings → Codebase index: lexical with no setup, semantic through an OpenAI-compatible endpoint, a failing endpoint, rebuild and clear', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  const panel = page.getByLabel('Workspace index')
  // The sample project (README.md, src/greet.ts) is indexed in the background, lexically.
  await expect(panel.getByRole('status')).toHaveText(/^2 files, \d+ chunks indexed\.$/)
  await expect(panel).toContainText('Semantic search: off (lexical only)')

  const form = page.getByRole('form', { name: 'Embeddings' })
  await form.getByLabel('Provider').selectOption('openai-compatible')
  await form.getByLabel(/Base URL/).fill(modus.fake.openaiBaseUrl)
  await form.getByLabel('Model').fill('fake-embed')
  await form.getByRole('button', { name: 'Save embeddings' }).click()
  await expect(form.getByRole('status')).toHaveText('Saved. The index embeds its chunks with this model in the background.')
  await expect(panel).toContainText('Semantic search: ready · fake-embed (64 dimensions)')
  expect(modus.fake.embeddings.served).toBeGreaterThan(0)

  // The endpoint starts failing: a rebuild keeps a usable lexical index and says why semantic search is off.
  modus.fake.embeddings.failAfter = modus.fake.embeddings.served
  await panel.getByRole('button', { name: 'Rebuild index' }).click()
  await expect(panel.getByRole('status')).toHaveText(/^2 files, \d+ chunks indexed\. Semantic search unavailable; lexical search works\.$/)
  await expect(panel).toContainText(/Semantic search: failed · fake-embed/)

  await panel.getByRole('button', { name: 'Clear index' }).click()
  await expect(panel.getByRole('status')).toHaveText('Index cleared.')

  // The endpoint recovers; a rebuild embeds again.
  modus.fake.embeddings.failAfter = null
  await panel.getByRole('button', { name: 'Rebuild index' }).click()
  await expect(panel).toContainText('Semantic search: ready · fake-embed (64 dimensions)')
  await expect(panel.getByRole('status')).toHaveText(/^2 files, \d+ chunks indexed\.$/)
})
