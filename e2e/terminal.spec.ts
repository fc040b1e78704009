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
