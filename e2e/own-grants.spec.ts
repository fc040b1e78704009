import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test, type ModusHarness } from './harness'

// What the user saves through the app is the user's own grant: it never makes the folder untrusted.

const FAST =
  'customModes:\n  - slug: fast\n    name: Fast\n    roleDefinition: Goes fast.\n    groups: [read, command]\n    autoApprove: { command: true }\n'

async function saveProjectModeThatAutoApprovesEdits(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('button', { name: 'New mode' }).click()
  const editor = page.getByRole('form', { name: 'New mode' })
  await editor.getByLabel('Name', { exact: true }).fill('Docs Writer')
  await editor.getByLabel('Role definition').fill('Writes the docs.')
  await editor.getByLabel(/^Edit \(/).check()
  await editor.getByRole('switch', { name: 'Edit files' }).check()
  await editor.getByLabel('Save to').selectOption('project')
  await editor.getByRole('button', { name: 'Save mode' }).click()
  await expect(page.getByRole('form', { name: 'Edit mode Docs Writer' })).toBeVisible()
}

async function expectTrustedOwnMode(page: Page): Promise<void> {
  const saved = page.getByRole('form', { name: 'Edit mode Docs Writer' })
  await expect(page.getByRole('dialog', { name: /Trust/ })).toBeHidden()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeHidden()
  await expect(saved).not.toContainText('not trusted')
  await expect(saved.getByRole('switch', { name: 'Edit files' })).toBeChecked()
}

test('a project mode saved in a folder that granted nothing is trusted at once', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await saveProjectModeThatAutoApprovesEdits(page)
  await expectTrustedOwnMode(page)
  await page.reload()
  await expect(page.getByRole('dialog', { name: /Trust/ })).toBeHidden()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeHidden()
})

async function openWithFastMode(
  page: Page,
  modus: ModusHarness,
  answer: 'Trust this workspace' | 'Keep asking'
): Promise<void> {
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(join(modus.workspace, '.modus', 'modes.yaml'), FAST)
  await page.goto(modus.url)
  await page.getByLabel('Folder path').fill(modus.workspace)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await prompt.getByRole('button', { name: answer }).click()
  await expect(prompt).toBeHidden()
}

test('a mode saved in a trusted folder keeps it trusted, even after a reload', async ({ page, modus }) => {
  await openWithFastMode(page, modus, 'Trust this workspace')
  await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
  await page.getByLabel(/Base URL/).fill(modus.fake.anthropicBaseUrl)
  await page.getByLabel('Model').fill('claude-sonnet-4-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  await saveProjectModeThatAutoApprovesEdits(page)
  await expectTrustedOwnMode(page)
  await page.reload()
  await expect(page.getByRole('dialog', { name: /Trust/ })).toBeHidden()
  await expect(page.getByRole('button', { name: /Restricted/ })).toBeHidden()
})

test('an untrusted project mode offers the trust control right where it says so', async ({ page, modus }) => {
  await openWithFastMode(page, modus, 'Keep asking')
  await page.getByLabel('Provider', { exact: true }).selectOption('anthropic')
  await page.getByLabel(/Base URL/).fill(modus.fake.anthropicBaseUrl)
  await page.getByLabel('Model').fill('claude-sonnet-4-5')
  await page.getByLabel('API key').fill('sk-test-key-1234')
  await page.getByRole('button', { name: 'Save provider' }).click()
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Modes' }).click()
  await page.getByRole('navigation', { name: 'Mode list' }).getByRole('button', { name: /Fast/ }).click()
  const editor = page.getByRole('form', { name: 'Edit mode Fast' })
  await expect(editor).toContainText('not trusted')
  await editor.getByRole('button', { name: 'Review trust for this workspace…' }).click()
  await page.getByRole('dialog', { name: /Trust/ }).getByRole('button', { name: 'Trust this workspace' }).click()
  await expect(editor).not.toContainText('not trusted')
})
