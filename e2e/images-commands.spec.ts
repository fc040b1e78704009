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
  // The pointer rests where the last click left it; the menu (six entries now) would open under it
  // and the hovered entry would become the active one. Out of the way, only keys choose.
  await page.mouse.move(0, 0)
  await field.fill('/')
  const menu = page.getByRole('listbox', { name: 'Commands' })
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('option')).toHaveText([
    /\/new/,
    /\/mode <slug>/,
    /\/condense.*Summarise the task's earlier conversation now.*No task is open/,
    /\/checkpoint \[label\].*Save a checkpoint.*No task is open/,
    /\/cost.*tokens and cost per model.*No task is open/,
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

  await field.fill('/cos')
  await expect(menu.getByRole('option')).toHaveText([/\/cost/])
  await field.press('Tab')
  await field.press('Enter')
  await expect(page.getByRole('table', { name: 'Tokens and cost of this task so far' })).toContainText(
    'claude-sonnet-4-5'
  )

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

/** A built-in typed in full and sent (the trailing space closes the menu, as after choosing it). */
async function runCommand(page: Page, line: string): Promise<void> {
  await page.getByLabel('Message').fill(`${line} `)
  await page.getByLabel('Message').press('Enter')
}

test('/checkpoint, /condense and /cost leave rows in the chat that stay after a reload, with no axe violations; a refusal says why', async ({
  page,
  modus
}) => {
  test.setTimeout(180_000)
  const read = { toolCalls: [{ name: 'read_file', input: { path: 'src/greet.ts' } }] }
  modus.fake.enqueue(read, read, read, done, { text: 'SUMMARY: greet.ts read three times.' })
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Read greet three times')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Seen.')).toBeVisible()

  await runCommand(page, '/checkpoint before the summary')
  const saved = page.getByRole('group', { name: 'Checkpoint “before the summary”' })
  await expect(saved).toContainText('Checkpoint saved — no files changed since the last')
  await expect(saved.getByRole('button', { name: 'Restore files to this checkpoint' })).toBeVisible()

  await runCommand(page, '/condense')
  await expect(page.getByText(/Condensed 5 messages into a summary — [\d.k]+ → [\d.k]+ tokens/)).toBeVisible()
  await runCommand(page, '/cost')
  const cost = page.getByRole('table', { name: 'Tokens and cost of this task so far' })
  // The four turns of the task (the summary request is not among them).
  await expect(
    cost
      .getByRole('row', { name: /claude-sonnet-4-5/ })
      .getByRole('cell')
      .first()
  ).toHaveText('4')
  await expect(page.getByLabel('Message')).toHaveValue('')

  expect((await new AxeBuilder({ page }).include('.chat').analyze()).violations).toEqual([])

  // Too little left to condense again: the reason shows, nothing is asked of the model.
  const requests = modus.fake.requests.length
  await runCommand(page, '/condense')
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing to condense yet' })).toBeVisible()
  expect(modus.fake.requests).toHaveLength(requests)

  await page.reload()
  await expect(page.getByRole('table', { name: 'Tokens and cost of this task so far' })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Checkpoint “before the summary”' })).toBeVisible()
  await expect(page.getByText(/Condensed 5 messages into a summary/)).toBeVisible()
})

test('an image alone is sent; a mention in the answer to a follow-up question reaches the model', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    done,
    {
      toolCalls: [{ name: 'ask_followup_question', input: { question: 'Which file?', follow_up: [{ text: 'none' }] } }]
    },
    done
  )
  await openWorkspaceAndProvider(page, modus)
  await pasteImage(page, 'alone.png')
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled()
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Seen.')).toBeVisible()
  expect(lastUserContent(modus)).toContain(`"data":"${PNG}"`)
  await expect(page.getByRole('img', { name: 'Attached image 1' })).toBeVisible()

  await page.getByLabel('Message').fill('Explain a file')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Which file?')).toBeVisible()
  await page.getByLabel('Message').fill('This one: @src/greet.ts please')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByText('Seen.')).toHaveCount(2)
  const answer = lastUserContent(modus)
  expect(answer).toContain('This one: @src/greet.ts please')
  expect(answer).toContain('<mention path=\\"src/greet.ts\\">\\nFile: src/greet.ts\\n1 | export const greet')
})
