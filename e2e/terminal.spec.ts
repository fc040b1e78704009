import { expect, openWorkspaceAndProvider, test } from './harness'

test('a user terminal runs a real shell in the workspace and takes typed input', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Terminal', exact: true }).click()
  await page.getByRole('button', { name: 'New terminal' }).click()
  const screen = page.locator('.xterm-screen').first()
  await expect(screen).toBeVisible()
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.type('echo "pty-$((6*7))" && basename "$PWD"\n')
  await expect(page.locator('.xterm-rows').first()).toContainText('pty-42')
  await expect(page.locator('.xterm-rows').first()).toContainText('sample-project')
})

test('the app shortcuts work while the terminal has focus', async ({ page, modus }) => {
  await openWorkspaceAndProvider(page, modus)
  await page.getByRole('button', { name: 'Terminal', exact: true }).click()
  await page.getByRole('button', { name: 'New terminal' }).click()
  await expect(page.locator('.xterm-screen').first()).toBeVisible()
  const input = page.locator('.xterm-helper-textarea').first()
  await input.focus()
  await page.keyboard.type('echo still-here\n')
  await expect(page.locator('.xterm-rows').first()).toContainText('still-here')
  await expect(input).toBeFocused()
  await page.keyboard.press('Alt+1')
  await expect(page.getByLabel('Message')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Chat', exact: true })).toHaveAttribute('aria-current', 'page')
  await page.keyboard.press('Alt+4')
  await expect(page.getByRole('button', { name: 'Terminal', exact: true })).toHaveAttribute('aria-current', 'page')
  // Back in the terminal, the next shortcut works too.
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.press('Alt+7')
  await expect(page.getByRole('button', { name: 'History', exact: true })).toHaveAttribute('aria-current', 'page')
})
