import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { lastUserText } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'

test('typing @src/ma offers the file, the keyboard chooses it, and the model receives its content', async ({
  page,
  modus
}) => {
  writeFileSync(join(modus.workspace, 'src', 'main.ts'), 'export const mainAnswer = 42\n')
  modus.fake.enqueue({ toolCalls: [{ name: 'attempt_completion', input: { result: 'Read it.' } }] })
  await openWorkspaceAndProvider(page, modus)
  const field = page.getByLabel('Message')
  const combobox = page.getByRole('combobox', { name: 'Mention completion' })
  await field.click()
  await expect(combobox).toHaveAttribute('aria-expanded', 'false')
  await page.keyboard.type('Explain @src/ma')
  const list = page.getByRole('listbox', { name: 'Mention suggestions' })
  await expect(list).toBeVisible()
  await expect(combobox).toHaveAttribute('aria-expanded', 'true')
  await expect(list.getByRole('option').first()).toHaveText('src/main.ts')
  await expect(field).toHaveAttribute('aria-activedescendant', 'mention-option-0')
  const violations = (await new AxeBuilder({ page }).include('.composer').analyze()).violations
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])

  // Esc closes the list and keeps the focus in the field; typing on opens it again.
  await page.keyboard.press('Escape')
  await expect(list).toBeHidden()
  await expect(field).toBeFocused()
  await page.keyboard.press('Backspace')
  await page.keyboard.type('a')
  await expect(list).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(field).toHaveValue('Explain @src/main.ts ')
  await expect(list).toBeHidden()
  await page.keyboard.type('please')
  await page.keyboard.press('Enter')

  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Read it.')
  // The first requests are the provider check; the model request is the one with messages.
  const sent = lastUserText(modus.fake.requests.filter((request) => request.body?.messages).at(-1)!)
  expect(sent).toContain('<task>\nExplain @src/main.ts please\n</task>')
  expect(sent).toContain(
    '<mention path="src/main.ts">\nFile: src/main.ts\n1 | export const mainAnswer = 42\n</mention>'
  )
  // The chat shows the user's words with the mention as a chip.
  await expect(page.locator('.bubble.user .mention-chip')).toHaveText('@src/main.ts')
})

test('the list offers folders and the special mentions; arrows move through them', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  const field = page.getByLabel('Message')
  await field.click()
  await page.keyboard.type('@git')
  const list = page.getByRole('listbox', { name: 'Mention suggestions' })
  await expect(list.getByRole('option', { name: /@git-changes/ })).toBeVisible()
  await page.keyboard.press('Control+a')
  await page.keyboard.press('Backspace')
  await page.keyboard.type('@sr')
  await expect(list.getByRole('option').first()).toHaveText('src/')
  await page.keyboard.press('Tab')
  await expect(field).toHaveValue('@src/')
  await expect(list.getByRole('option', { name: 'src/greet.ts' })).toBeVisible()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('Enter')
  await expect(field).toHaveValue('@src/greet.ts ')
})

test('moving the caret out of a mention closes the list, and back into it opens it again', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  const field = page.getByLabel('Message')
  await field.click()
  await page.keyboard.type('Explain @sr')
  const list = page.getByRole('listbox', { name: 'Mention suggestions' })
  await expect(list.getByRole('option').first()).toHaveText('src/')
  await page.keyboard.press('Home')
  await expect(list).toBeHidden()
  await page.keyboard.press('End')
  await expect(list.getByRole('option').first()).toHaveText('src/')
})
