import type { Locator } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test } from './harness'

/** Controls without a name a screen reader could announce. */
async function unlabelledControls(scope: Locator): Promise<string[]> {
  await expect(scope.locator('input, textarea, select').first()).toBeVisible()
  return scope.locator('input, textarea, select').evaluateAll((controls) =>
    controls
      .filter((control) => {
        const element = control as HTMLInputElement
        return element.labels?.length === 0 && !element.getAttribute('aria-label') && !element.getAttribute('aria-labelledby')
      })
      .map((control) => control.outerHTML.slice(0, 80))
  )
}

test('adds an OpenAI-compatible provider; after a reload its key shows only as a masked hint', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add provider' }).click()
  const form = page.getByRole('form', { name: 'Provider settings' })
  await form.getByLabel('Provider', { exact: true }).selectOption('openai-compatible')
  // A compatible endpoint without its base URL cannot be saved, and the field says why.
  await expect(form.getByText('needs its base URL')).toBeVisible()
  await expect(form.getByRole('button', { name: 'Save provider' })).toBeDisabled()
  await form.getByLabel('Name (optional)').fill('Local Ollama')
  await form.getByLabel(/Base URL/).fill(modus.fake.openaiBaseUrl)
  await form.getByLabel('Model').fill('qwen3-coder')
  await form.getByLabel('API key').fill('sk-local-secret-9876')
  expect(await unlabelledControls(page.getByRole('region', { name: 'Settings' }))).toEqual([])
  await form.getByRole('button', { name: 'Save provider' }).click()

  const card = page.getByRole('group', { name: 'Provider Local Ollama' })
  await expect(card).toContainText('qwen3-coder')
  await expect(card).toContainText('key …9876')

  await page.reload()
  await page.getByRole('button', { name: 'Settings' }).click()
  const reloaded = page.getByRole('group', { name: 'Provider Local Ollama' })
  await expect(reloaded).toContainText(modus.fake.openaiBaseUrl)
  await expect(reloaded).toContainText('key …9876')
  expect(await page.content()).not.toContain('sk-local-secret-9876')

  // Make it the active provider, then remove the first one after confirming.
  await reloaded.getByRole('button', { name: 'Use Local Ollama' }).click()
  await expect(reloaded.getByText('active')).toBeVisible()
  await page.getByRole('button', { name: 'Remove Anthropic' }).click()
  await page.getByRole('alertdialog', { name: 'Remove Anthropic?' }).getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByRole('group', { name: 'Provider Anthropic' })).toHaveCount(0)
  await page.reload()
  await page.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('group', { name: /^Provider / })).toHaveCount(1)
})

test('edits a provider model without retyping its key', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Edit Anthropic' }).click()
  const form = page.getByRole('form', { name: 'Edit provider Anthropic' })
  await expect(form.getByLabel('API key')).toHaveValue('')
  await form.getByLabel('Model').fill('claude-opus-4-1')
  await form.getByRole('button', { name: 'Save provider' }).click()
  const card = page.getByRole('group', { name: 'Provider Anthropic' })
  await expect(card).toContainText('claude-opus-4-1')
  await expect(card).toContainText('key …1234')
})

test('limits, global command rules and the theme override are saved and survive a reload', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  const limits = page.getByRole('form', { name: 'Limits' })
  await limits.getByLabel('Consecutive mistakes before asking for guidance').fill('5')
  await limits.getByLabel('Model requests per task before asking').fill('abc')
  await expect(limits.getByText('A whole number above 0, or blank for no cap.')).toBeVisible()
  await expect(limits.getByRole('button', { name: 'Save limits' })).toBeDisabled()
  await limits.getByLabel('Model requests per task before asking').fill('40')
  await limits.getByLabel('Cost per task before asking (USD)').fill('2.5')
  await limits.getByRole('button', { name: 'Save limits' }).click()
  await expect(limits.getByText('Limits saved.')).toBeVisible()

  const rules = page.getByRole('form', { name: 'Command rules for every mode' })
  await rules.getByLabel('Deny').fill('git push *\nrm -rf *')
  await rules.getByRole('button', { name: 'Save command rules' }).click()
  await expect(rules.getByText('Command rules saved.')).toBeVisible()

  await page.getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')

  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.getByRole('button', { name: 'Settings' }).click()
  const reloaded = page.getByRole('form', { name: 'Limits' })
  await expect(reloaded.getByLabel('Consecutive mistakes before asking for guidance')).toHaveValue('5')
  await expect(reloaded.getByLabel('Model requests per task before asking')).toHaveValue('40')
  await expect(reloaded.getByLabel('Cost per task before asking (USD)')).toHaveValue('2.5')
  await expect(page.getByRole('form', { name: 'Command rules for every mode' }).getByLabel('Deny')).toHaveValue('git push *\nrm -rf *')

  // Back to following the OS: the attribute goes and the media query decides.
  await page.getByRole('radio', { name: 'Follow the system' }).check()
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/)
  await page.emulateMedia({ colorScheme: 'dark' })
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(background).toBe('rgb(23, 25, 29)')
})
