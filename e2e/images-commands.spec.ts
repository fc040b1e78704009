import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'

/** A real 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Seen.' } }] }

/** What a user's Ctrl+V of a copied image fires: a paste event whose clipboard holds a file. */
async function pasteImage(page: Page, name: string): Promise<void> {
  await page.getByLabel('Message').evaluate(
    (field, { data, fileName }) => {
      const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], fileName, { type: 'image/png' }))
      field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }))
    },
    { data: PNG, fileName: name }
  )
}

const lastUserContent = (modus: ModusHarness): string => {
  const request = modus.fake.requests.filter((r) => r.protocol !== 'unknown').at(-1)!
  return JSON.stringify((request.body.messages as Array<{ role: string }>).filter((m) => m.role === 'user').at(-1))
}

/** The setup form with an OpenAI-compatible server running a model the table does not know. */
async function customProvider(page: Page, modus: ModusHarness, acceptsImages: boolean): Promise<void> {
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  await page.getByLabel('Provider', { exact: true }).selectOption('openai-compatible')
  await page.getByLabel(/Base URL/).fill(modus.fake.openaiBaseUrl)
  await page.getByLabel('Model').fill('qwen3-coder')
  await page.getByLabel(/Accepts images/).setChecked(acceptsImages)
  await page.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByLabel('Message')).toBeVisible()
}

test('a pasted image shows as a thumbnail, can be removed, goes to the model and stays after a reload; a too-big file is refused with its size', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(done)
  await openWorkspaceAndProvider(page, modus)
  await pasteImage(page, 'first.png')
  await pasteImage(page, 'second.png')
  await expect(page.getByRole('img', { name: 'first.png' })).toBeVisible()
  await page.getByRole('button', { name: 'Remove first.png' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('img', { name: 'first.png' })).toHaveCount(0)
  await expect(page.getByRole('img', { name: 'second.png' })).toBeVisible()

  // The attach button's file input: a file past the limit is named with its size.
  await page.getByLabel('Attach images').setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(4 * 1024 * 1024)
  })
  await expect(page.getByRole('alert')).toContainText('huge.png is 4.0 MB; an image may be up to 3.8 MB.')

  await page.getByLabel('Message').fill('What is in this picture?')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Seen.')).toBeVisible()
  expect(lastUserContent(modus)).toContain(`"data":"${PNG}"`)
  await expect(page.getByRole('img', { name: 'Attached image 1' })).toBeVisible()
  await expect(page.getByRole('img', { name: 'second.png' })).toHaveCount(0)

  await page.reload()
  await expect(page.getByRole('img', { name: 'Attached image 1' })).toBeVisible()
})

test('the slash menu: keyboard choice of a project command run with arguments, built-ins, and no axe violations', async ({
  page,
  modus
}) => {
  mkdirSync(join(modus.workspace, '.modus', 'commands'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'commands', 'review.md'),
    '---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $ARGUMENTS carefully.\n'
  )
  modus.fake.enqueue(done)
  await openWorkspaceAndProvider(page, modus)
  const field = page.getByLabel('Message')
  await field.fill('/')
  const menu = page.getByRole('listbox', { name: 'Commands' })
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('option')).toHaveText([
    /\/new/,
    /\/mode <slug>/,
    /\/cost/,
    /\/review <file>.*Review a file for bugs/
  ])
  expect((await new AxeBuilder({ page }).include('.composer').analyze()).violations).toEqual([])

  await field.press('ArrowUp') // wraps to the last option
  await expect(menu.getByRole('option', { name: /review/ })).toHaveAttribute('aria-selected', 'true')
  await expect(field).toHaveAttribute('aria-activedescendant', 'slash-command-review')
  await field.press('Enter')
  await expect(field).toHaveValue('/review ')
  await expect(menu).toHaveCount(0)
  await field.pressSequentially('src/greet.ts')
  await field.press('Enter')
  await expect(page.getByText('Seen.')).toBeVisible()
  expect(lastUserContent(modus)).toContain('Review src/greet.ts carefully.')

  await field.fill('/co')
  await expect(menu.getByRole('option')).toHaveText([/\/cost/])
  await field.press('Tab')
  await field.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'This task: 1 request' })).toBeVisible()

  await field.fill('/mode ask')
  await field.press('Escape')
  await field.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'The next message goes in mode ask.' })).toBeVisible()
})

test('a custom model without images refuses a pasted image before sending and keeps the message; with "Accepts images" it gets it', async ({
  page,
  modus
}) => {
  await customProvider(page, modus, false)
  await pasteImage(page, 'shot.png')
  await page.getByLabel('Message').fill('Look at this')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText(/qwen3-coder does not accept images, so the message was not sent/)).toBeVisible()
  await expect(page.getByLabel('Message')).toHaveValue('Look at this')
  await expect(page.getByRole('img', { name: 'shot.png' })).toBeVisible()
  expect(modus.fake.requests.filter((r) => r.protocol !== 'unknown')).toHaveLength(0)
})

test('with "Accepts images" on, a custom model gets the image', async ({ page, modus }) => {
  modus.fake.enqueue(done)
  await customProvider(page, modus, true)
  await pasteImage(page, 'shot.png')
  await page.getByLabel('Message').fill('Look at this')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Seen.')).toBeVisible()
  expect(lastUserContent(modus)).toContain(`"url":"data:image/png;base64,${PNG}"`)
})
