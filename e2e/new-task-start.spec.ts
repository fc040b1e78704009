import { expect, openWorkspaceAndProvider, test } from './harness'

// #28 item 14: a new task shows the mode and model it starts with, a few tips, and the folder's
// recent tasks, one keypress away.

test('a new task shows its mode and model, tips and recent tasks; a recent task opens with the keyboard', async ({
  page,
  modus
}) => {
  test.setTimeout(180_000)
  modus.fake.enqueue({ toolCalls: [{ name: 'attempt_completion', input: { result: 'Greeted.' } }] })
  await openWorkspaceAndProvider(page, modus)

  const setup = page.getByRole('region', { name: 'This task starts with' })
  await expect(setup.getByRole('definition').first()).toHaveText('Code — Write and change code')
  await expect(setup.getByRole('definition').nth(1)).toHaveText(/claude-sonnet-4-5/)
  await expect(page.getByRole('region', { name: 'Tips' }).getByRole('listitem')).toHaveCount(5)
  // Nothing done yet in this folder: no recent tasks.
  await expect(page.getByRole('region', { name: 'Recent tasks' })).toHaveCount(0)

  // The mode picked in the composer is the one the start says.
  await page.getByRole('button', { name: /^Mode: / }).click()
  await page.getByRole('menuitemradio', { name: /^Ask/ }).click()
  await expect(setup.getByRole('definition').first()).toHaveText(/^Ask — /)

  await page.getByLabel('Message').fill('Say hello to the team')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Greeted.')
  await expect(setup).toHaveCount(0)

  await page.getByRole('button', { name: 'New task' }).click()
  const recent = page.getByRole('region', { name: 'Recent tasks' })
  const entry = recent.getByRole('button', { name: 'Say hello to the team' })
  await expect(entry).toBeVisible()
  await entry.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.task-title')).toHaveText('Say hello to the team')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Greeted.')
})
