import type { Locator } from '@playwright/test'
import { apiKeyOf, startFakeProvider } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'

/** Controls without a name a screen reader could announce. */
async function unlabelledControls(scope: Locator): Promise<string[]> {
  await expect(scope.locator('input, textarea, select').first()).toBeVisible()
  return scope.locator('input, textarea, select').evaluateAll((controls) =>
    controls
      .filter((control) => {
        const element = control as HTMLInputElement
        return (
          element.labels?.length === 0 &&
          !element.getAttribute('aria-label') &&
          !element.getAttribute('aria-labelledby')
        )
      })
      .map((control) => control.outerHTML.slice(0, 80))
  )
}

test('adds an OpenAI-compatible provider; after a reload its key shows only as a masked hint', async ({
  page,
  modus
}) => {
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
  await expect(page.getByRole('form', { name: 'Command rules for every mode' }).getByLabel('Deny')).toHaveValue(
    'git push *\nrm -rf *'
  )

  // Back to following the OS: the attribute goes and the media query decides.
  await page.getByRole('radio', { name: 'Follow the system' }).check()
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.+/)
  await page.emulateMedia({ colorScheme: 'dark' })
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(background).toBe('rgb(23, 25, 29)')
})

test('saving a provider tests the connection and says what is wrong before anything is saved', async ({
  page,
  modus
}) => {
  const guarded = await startFakeProvider({ name: 'provider check', requireApiKey: 'sk-right-key-4321' })
  try {
    await page.goto(modus.url)
    await page.getByLabel('Folder path').fill(modus.workspace)
    await page.getByRole('button', { name: 'Open', exact: true }).click()
    const form = page.getByRole('form', { name: 'Provider settings' })
    await form.getByLabel(/Base URL/).fill(guarded.anthropicBaseUrl)
    await form.getByLabel('Model').fill('claude-sonnet-4-5')

    // No key at all: said at once, nothing saved.
    await form.getByRole('button', { name: 'Save provider' }).click()
    await expect(form.getByRole('alert')).toContainText('Anthropic needs an API key')
    await expect(form.getByLabel('API key')).toHaveAttribute('aria-invalid', 'true')

    // A wrong key: the provider's 401, in words, and still nothing saved.
    await form.getByLabel('API key').fill('sk-wrong-key-0000')
    await form.getByRole('button', { name: 'Save provider' }).click()
    await expect(form.getByRole('alert')).toContainText('Anthropic rejected the API key (401')
    await expect(form.getByRole('button', { name: 'Save anyway' })).toBeVisible()

    // An unknown model: the models the provider lists are named.
    await form.getByLabel('API key').fill('sk-right-key-4321')
    await form.getByLabel('Model').fill('claude-sonnet-9')
    await form.getByRole('button', { name: 'Save provider' }).click()
    await expect(form.getByRole('alert')).toContainText(
      'Anthropic has no model "claude-sonnet-9". It lists 6: claude-sonnet-4-6, claude-sonnet-4-5-20250929'
    )
    await expect(form.getByLabel('Model')).toHaveAttribute('aria-invalid', 'true')
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Choose a provider' })).toBeVisible() // nothing was saved

    const again = page.getByRole('form', { name: 'Provider settings' })
    await again.getByLabel(/Base URL/).fill(guarded.anthropicBaseUrl)
    await again.getByLabel('Model').fill('claude-sonnet-4-5')
    await again.getByLabel('API key').fill('sk-right-key-4321')
    await again.getByRole('button', { name: 'Save provider' }).click()
    await expect(page.getByLabel('Message')).toBeVisible()

    // In Settings, an unreachable server is named; "Save anyway" keeps it, and says it does not connect.
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByRole('button', { name: 'Add provider' }).click()
    const added = page.getByRole('form', { name: 'Provider settings' })
    await added.getByLabel('Provider', { exact: true }).selectOption('openai-compatible')
    await added.getByLabel('Name (optional)').fill('Stopped server')
    await added.getByLabel(/Base URL/).fill('http://127.0.0.1:9/v1')
    await added.getByLabel('Model').fill('qwen3-coder')
    await added.getByRole('button', { name: 'Save provider' }).click()
    await expect(added.getByRole('alert')).toContainText('Could not reach Stopped server at http://127.0.0.1:9/v1')
    await added.getByRole('button', { name: 'Save anyway' }).click()
    await expect(page.getByRole('group', { name: 'Provider Stopped server' })).toBeVisible()
    await expect(page.getByText('Saved Stopped server without a working connection: Could not reach')).toBeVisible()

    // A working one says so.
    await page.getByRole('button', { name: 'Edit Anthropic' }).click()
    await page
      .getByRole('form', { name: 'Edit provider Anthropic' })
      .getByRole('button', { name: 'Save provider' })
      .click()
    await expect(
      page.getByText('Saved Anthropic. Connected to Anthropic: "claude-sonnet-4-5" is available (6 models listed).')
    ).toBeVisible()
  } finally {
    await guarded.close()
  }
})

test('the model field lists the provider’s own models with retirement dates; the task bar shows a retiring model’s date', async ({
  page,
  modus
}) => {
  await openWorkspaceAndProvider(page, modus) // claude-sonnet-4-5, which the table says retires 2026-11-30
  modus.fake.enqueue({ text: 'Hello there.' })
  await page.getByLabel('Message').fill('Say hello')
  await page.getByLabel('Message').press('Enter')
  await expect(page.locator('.assistant-text').filter({ hasText: 'Hello there.' })).toBeVisible()
  await expect(page.locator('.task-bar .task-model')).toHaveText('claude-sonnet-4-5 · retires 2026-11-30')

  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  await page.getByRole('button', { name: 'Edit Anthropic' }).click()
  const form = page.getByRole('form', { name: 'Edit provider Anthropic' })
  // The stored key asks the fake's GET /v1/models through the Anthropic SDK (two pages).
  await expect(form.getByRole('status').filter({ hasText: 'models from the provider' })).toHaveText(
    '6 models from the provider, 1 with a retirement date.'
  )
  await expect(form.locator('datalist option[value="claude-sonnet-4-5-20250929"]')).toHaveAttribute(
    'label',
    'Claude Sonnet 4.5 · deprecated · retires 2026-11-30'
  )
  await expect(form.locator('option[value="claude-opus-4-6"]')).toHaveCount(0) // the table's suggestions give way to the provider's list
  await form.getByLabel('Model').fill('claude-sonnet-4-5-20250929')
  await expect(form.getByText(/200k context · \$3 in \/ \$15 out per M tokens · retires 2026-11-30/)).toBeVisible()
  // A model the table does not know is still choosable; its price is unknown.
  await form.getByLabel('Model').fill('qwen3-coder')
  await expect(form.getByText(/not in the model table: price unknown/)).toBeVisible()
  await form.getByRole('button', { name: 'Save provider' }).click()
  await expect(page.getByRole('group', { name: 'Provider Anthropic' })).toContainText('qwen3-coder')
  const listed = modus.fake.requests.filter((r) => r.path === '/v1/models')
  expect(listed.length).toBeGreaterThan(0)
  expect([...new Set(listed.map((r) => apiKeyOf(r) ?? 'no key'))]).toEqual(['sk-test-key-1234'])
})

test('a provider that refuses the key: the model field says why and keeps the built-in suggestions', async ({
  page,
  modus
}) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add provider' }).click()
  const form = page.getByRole('form', { name: 'Provider settings' })
  await form.getByLabel(/Base URL/).fill(`${modus.fake.url}/nowhere`)
  await form.getByLabel('API key').fill('sk-other')
  await expect(form.getByRole('status').filter({ hasText: 'Could not list' })).toContainText(
    'suggestions from the built-in table'
  )
  await expect(form.locator('option[value="claude-opus-4-6"]')).toHaveCount(1)
})
