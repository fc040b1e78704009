import { expect, openWorkspaceAndProvider, test } from './harness'

// #28 item 18: one layout and one save model in Settings (one Save per section, a guard before
// unsaved edits are left), errors only after the user typed, and an index status that agrees with itself.

test('every settings section has its labels above the inputs and one Save, enabled only once something changed', async ({
  page,
  modus
}) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  // The Hooks section loads lazily: measure once it is in place, or the sections below it move mid-measure.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  const forms = page.locator('form.settings-form')
  // Six sections, and since #32 the Worktrees settings in the same layout.
  await expect(forms).toHaveCount(7)
  for (const form of await forms.all()) {
    await expect(form.locator('button[type=submit]')).toHaveCount(1)
    await expect(form.locator('button[type=submit]')).toBeDisabled()
    await expect(form.getByRole('status')).toHaveText('')
    for (const field of await form.locator('.settings-field').all()) {
      const label = await field.locator('label').boundingBox()
      const input = await field.locator('input, select').first().boundingBox()
      expect(label && input && label.y + label.height <= input.y + 1).toBe(true)
    }
  }

  // No error before anything is typed; the error of a field, linked to it, once the user typed.
  const limits = page.getByRole('form', { name: 'Limits' })
  const requests = limits.getByLabel('Model requests per task before asking')
  await expect(limits.locator('.field-error')).toHaveCount(0)
  await requests.fill('abc')
  await expect(requests).toHaveAttribute('aria-invalid', 'true')
  await expect(requests).toHaveAccessibleDescription('A whole number above 0, or blank for no cap.')
  await expect(limits.getByRole('button', { name: 'Save limits' })).toBeDisabled()
  await requests.fill('40')
  await expect(limits.getByRole('status')).toHaveText('Unsaved changes')
  await limits.getByRole('button', { name: 'Save limits' }).click()
  await expect(limits.getByRole('status')).toHaveText('Limits saved.')
  await expect(limits.getByRole('button', { name: 'Save limits' })).toBeDisabled()
})

test('leaving Settings with an unsaved section asks first; staying keeps the edit, saving lets the user go', async ({
  page,
  modus
}) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  const browser = page.getByRole('form', { name: 'Browser settings' })
  await browser.getByLabel('Viewport width (px)').fill('1024')

  // Alt+1 (the Chat view) with the keyboard: the question names the section; "Cancel" stays.
  const questions: string[] = []
  page.once('dialog', (dialog) => {
    questions.push(dialog.message())
    void dialog.dismiss()
  })
  await page.keyboard.press('Alt+1')
  await expect.poll(() => questions).toEqual(['Unsaved changes in Browser. Leave without saving them?'])
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  await expect(browser.getByLabel('Viewport width (px)')).toHaveValue('1024')

  await browser.getByLabel('Viewport width (px)').press('Enter')
  await expect(browser.getByRole('status')).toHaveText('Browser settings saved.')
  page.on('dialog', (dialog) => {
    questions.push(dialog.message())
    void dialog.dismiss()
  })
  await page.keyboard.press('Alt+1')
  await expect(page.getByLabel('Message')).toBeVisible()
  expect(questions).toHaveLength(1)
})

test('the codebase index says the same number of files in its line and its counts', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  const panel = page.getByLabel('Workspace index')
  await expect(panel.getByRole('status')).toHaveText(/^2 files, \d+ chunks indexed\.$/)
  const chunks = /(\d+) chunks/.exec((await panel.getByRole('status').textContent()) ?? '')![1]
  await expect(panel.locator('.note').first()).toHaveText(`2 / 2 files · ${chunks} chunks`)
  // A restart of the view reads the kept index: still one truth.
  await page.reload()
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByLabel('Workspace index').locator('.note').first()).toHaveText(`2 / 2 files · ${chunks} chunks`)
})
