import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, openWorkspaceAndProvider, test } from './harness'

test('Settings → Codebase index: lexical with no setup, semantic through an OpenAI-compatible endpoint, a failing endpoint, rebuild and clear', async ({
  page,
  modus
}) => {
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
  await expect(form.getByRole('status')).toHaveText(
    'Saved. The index embeds its chunks with this model in the background.'
  )
  await expect(panel).toContainText('Semantic search: ready · fake-embed (64 dimensions)')
  expect(modus.fake.embeddings.served).toBeGreaterThan(0)

  // The endpoint starts failing: a rebuild keeps a usable lexical index and says why semantic search is off.
  modus.fake.embeddings.failAfter = modus.fake.embeddings.served
  await panel.getByRole('button', { name: 'Rebuild index' }).click()
  await expect(panel.getByRole('status')).toHaveText(
    /^2 files, \d+ chunks indexed\. Semantic search unavailable; lexical search works\.$/
  )
  await expect(panel).toContainText(/Semantic search: failed · fake-embed/)

  await panel.getByRole('button', { name: 'Clear index' }).click()
  await expect(panel.getByRole('status')).toHaveText('Index cleared.')

  // The endpoint recovers; a rebuild embeds again.
  modus.fake.embeddings.failAfter = null
  await panel.getByRole('button', { name: 'Rebuild index' }).click()
  await expect(panel).toContainText('Semantic search: ready · fake-embed (64 dimensions)')
  await expect(panel.getByRole('status')).toHaveText(/^2 files, \d+ chunks indexed\.$/)
})

test('status bar: the build shows files done / total with Cancel; a cancelled build keeps its part and Resume finishes it', async ({
  page,
  modus
}) => {
  test.setTimeout(300_000)
  // Enough files that the build is still running when Cancel is pressed.
  const total = 3000 + 2
  for (let i = 0; i < 3000; i++) {
    const body = Array.from(
      { length: 12 },
      (_, k) => `export function step${i}x${k}(value: number): number {\n  return value * ${k} + ${i}\n}\n`
    ).join('\n')
    writeFileSync(join(modus.workspace, 'src', `module${i}.ts`), body)
  }
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()

  const item = page.getByRole('contentinfo', { name: 'Status bar' }).getByLabel('Codebase index')
  await expect(item.getByRole('status')).toHaveText(new RegExp(`^Indexing [1-9]\\d* / ${total} files$`))
  await expect(item.getByRole('progressbar', { name: 'Indexing progress' })).toBeVisible()
  await item.getByRole('button', { name: 'Cancel indexing' }).click()
  await expect(item.getByRole('status')).toHaveText(new RegExp(`^Index paused at \\d+ / ${total} files$`))
  const paused = Number(/at (\d+) \//.exec((await item.getByRole('status').textContent()) ?? '')?.[1])
  expect(paused).toBeLessThan(total)
  await expect(item.getByRole('progressbar')).toHaveCount(0)

  // The part indexed is kept: the core reports it, and Resume goes on from there to the end.
  await item.getByRole('button', { name: 'Resume indexing' }).click()
  await expect(item.getByRole('status')).toHaveText(/^Index: \d+ chunks$/, { timeout: 120_000 })
  await expect(item.getByRole('button')).toHaveCount(0)
  // Its tooltip is the core's full line: every file is in.
  await expect(item).toHaveAttribute('title', new RegExp(`^${total} files, \\d+ chunks indexed\\.$`))
})
